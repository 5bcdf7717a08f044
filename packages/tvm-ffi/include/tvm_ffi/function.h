// Function: the callable object of the one calling convention, packed or typed, and the registry.
#ifndef TVM_FFI_FUNCTION_H_
#define TVM_FFI_FUNCTION_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/error.h>
#include <tvm_ffi/optional.h>
#include <tvm_ffi/string.h>

#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*! The object behind Function: header then TVMFFIFunctionCell (layout is ABI). */
class FunctionObj : public Object {
 public:
  TVMFFIFunctionCell cell;
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Function", FunctionObj, Object, kTVMFFIFunction);
};

/*! The arguments of a packed call: borrowed views. */
class PackedArgs {
 public:
  PackedArgs(const AnyView* data, int32_t size) : data_(data), size_(size) {}
  int32_t size() const { return size_; }
  const AnyView& operator[](int32_t i) const { return data_[i]; }
  const AnyView* data() const { return data_; }

 private:
  const AnyView* data_;
  int32_t size_;
};

namespace details {

/*! A Function whose body is a C++ callable `void(PackedArgs, Any*)`. */
template <typename TCallable>
class PackedFunctionObj : public FunctionObj {
 public:
  explicit PackedFunctionObj(TCallable callable) : callable_(std::move(callable)) {
    cell.safe_call = SafeCall;
    cell.self = this;
  }

 private:
  static int SafeCall(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    auto* obj = static_cast<PackedFunctionObj*>(self);
    obj->callable_(PackedArgs(reinterpret_cast<const AnyView*>(args), num_args),
                   reinterpret_cast<Any*>(result));
    TVM_FFI_SAFE_CALL_END();
  }
  TCallable callable_;
};

/*! A Function around a C safe-call pointer and a context freed by `deleter`. */
class CFunctionObj : public FunctionObj {
 public:
  CFunctionObj(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void*))
      : deleter_(deleter), context_(self) {
    cell.safe_call = safe_call;
    cell.self = self;
  }
  ~CFunctionObj() {
    if (deleter_) deleter_(context_);
  }

 private:
  void (*deleter_)(void*);
  void* context_;
};

// ----- signatures of callables, for typed functions -----
template <typename T>
struct FuncTraits : FuncTraits<decltype(&T::operator())> {};
template <typename R, typename... Args>
struct FuncTraits<R (*)(Args...)> {
  using Ret = R;
  using ArgsTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_t kNumArgs = sizeof...(Args);
};
template <typename R, typename... Args>
struct FuncTraits<R(Args...)> : FuncTraits<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FuncTraits<R (C::*)(Args...) const> : FuncTraits<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FuncTraits<R (C::*)(Args...)> : FuncTraits<R (*)(Args...)> {};

template <typename T>
std::string TypeStrOf() {
  if constexpr (std::is_void_v<T>) {
    return "None";
  } else {
    return TypeTraits<std::decay_t<T>>::TypeStr();
  }
}

template <typename R, typename Tuple, size_t... I>
std::string SignatureOf(const std::string& name, std::index_sequence<I...>) {
  std::string out = name + "(";
  ((out +=
    (I == 0 ? "" : ", ") + std::to_string(I) + ": " + TypeStrOf<std::tuple_element_t<I, Tuple>>()),
   ...);
  return out + ") -> " + TypeStrOf<R>();
}

/*! The signature of F as `name(0: int, 1: str) -> float`, for error messages. */
template <typename F>
std::string Signature(const std::string& name) {
  using Traits = FuncTraits<F>;
  return SignatureOf<typename Traits::Ret, typename Traits::ArgsTuple>(
      name, std::make_index_sequence<Traits::kNumArgs>());
}

template <typename R, typename Tuple, size_t... I>
std::string SchemaOfTuple(std::index_sequence<I...>) {
  return FunctionTypeSchema<R, std::tuple_element_t<I, Tuple>...>();
}

/*! The type schema of callable F (its return and parameter types), as upstream records it. */
template <typename F>
std::string TypeSchemaOfCallable() {
  using Traits = FuncTraits<F>;
  return SchemaOfTuple<typename Traits::Ret, typename Traits::ArgsTuple>(
      std::make_index_sequence<Traits::kNumArgs>());
}

template <typename T, typename F>
T CastArg(const AnyView& arg, int index, const std::string& name) {
  std::optional<T> out = TypeTraits<T>::TryCastFromAnyView(arg.raw());
  if (TVM_FFI_UNLIKELY(!out.has_value())) {
    if constexpr (HasIntRange<T>::value) {
      if (IsIntOutOfRange<T>(arg.raw())) {
        TVM_FFI_THROW(OverflowError)
            << "Argument #" << index << " out of range when calling: `" << Signature<F>(name)
            << "`. Expected " << TypeTraits<T>::RangeStr() << " but got " << arg.raw()->v_int64;
      }
    }
    TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << index << " when calling: `"
                             << Signature<F>(name) << "`. Expected `" << TypeTraits<T>::TypeStr()
                             << "` but got `" << arg.GetTypeKey() << "`";
  }
  return *std::move(out);
}

template <typename F, size_t... I>
void CallTyped(const F& f, const std::string& name, PackedArgs args, Any* rv,
               std::index_sequence<I...>) {
  using Traits = FuncTraits<F>;
  using Tuple = typename Traits::ArgsTuple;
  if (TVM_FFI_UNLIKELY(args.size() != static_cast<int32_t>(Traits::kNumArgs))) {
    TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                             << Signature<F>(name) << "`. Expected " << Traits::kNumArgs
                             << " but got " << args.size() << " arguments";
  }
  // A braced list converts the arguments left to right, so the first bad one is reported.
  Tuple converted{CastArg<std::tuple_element_t<I, Tuple>, F>(args[I], I, name)...};
  if constexpr (std::is_void_v<typename Traits::Ret>) {
    f(std::get<I>(std::move(converted))...);
  } else {
    *rv = Any(f(std::get<I>(std::move(converted))...));
  }
}

}  // namespace details

/*! A reference to a callable object. */
class Function : public ObjectRef {
 public:
  Function() = default;
  explicit Function(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}

  /*! From a callable `void(PackedArgs args, Any* rv)`. */
  template <typename TCallable>
  static Function FromPacked(TCallable callable) {
    return Function(make_object<details::PackedFunctionObj<TCallable>>(std::move(callable)));
  }
  /*! From a typed callable; arguments are converted with TypeTraits, errors name `name`. */
  template <typename TCallable>
  static Function FromTyped(TCallable callable, std::string name = "<anonymous>") {
    return FromPacked(
        [callable = std::move(callable), name = std::move(name)](PackedArgs args, Any* rv) {
          details::CallTyped(callable, name, args, rv,
                             std::make_index_sequence<details::FuncTraits<TCallable>::kNumArgs>());
        });
  }
  /*! From a C function pointer with a context freed by deleter. */
  static Function FromCSafeCall(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void*)) {
    return Function(make_object<details::CFunctionObj>(self, safe_call, deleter));
  }

  template <typename... Args>
  Any operator()(Args&&... args) const {
    constexpr size_t kNum = sizeof...(Args);
    AnyView views[kNum == 0 ? 1 : kNum] = {AnyView(std::forward<Args>(args))...};
    Any rv;
    CallPacked(views, static_cast<int32_t>(kNum), &rv);
    return rv;
  }
  void CallPacked(const AnyView* args, int32_t num_args, Any* rv) const {
    const FunctionObj* f = get();
    int ret = f->cell.safe_call(f->cell.self, reinterpret_cast<const TVMFFIAny*>(args), num_args,
                                rv->raw_mutable());
    if (TVM_FFI_UNLIKELY(ret != 0)) throw details::MoveFromRaised();
  }
  void CallPacked(PackedArgs args, Any* rv) const { CallPacked(args.data(), args.size(), rv); }

  /*! The global function `name`, or nullopt. */
  static Optional<Function> GetGlobal(const std::string& name) {
    TVMFFIByteArray key{name.data(), name.size()};
    TVMFFIObjectHandle handle = nullptr;
    if (TVMFFIFunctionGetGlobal(&key, &handle) != 0) throw details::MoveFromRaised();
    if (handle == nullptr) return std::nullopt;
    return Function(
        details::ObjectUnsafe::FromOwnedHeader<Object>(static_cast<TVMFFIObject*>(handle)));
  }
  /*! The global function `name`; ValueError naming it when none is registered. */
  static Function GetGlobalRequired(const std::string& name) {
    Optional<Function> f = GetGlobal(name);
    if (!f.has_value()) TVM_FFI_THROW(ValueError) << "Function `" << name << "` is not registered";
    return *f;
  }
  static void SetGlobal(const std::string& name, const Function& f, bool override = false) {
    TVMFFIByteArray key{name.data(), name.size()};
    if (TVMFFIFunctionSetGlobal(&key, details::ObjectUnsafe::GetHeader(f.get()), override) != 0) {
      throw details::MoveFromRaised();
    }
  }
  /*! SetGlobal with a metadata JSON object (e.g. {"type_schema": "..."}) kept beside it. */
  static void SetGlobal(const std::string& name, const Function& f, bool override,
                        const std::string& metadata) {
    TVMFFIByteArray key{name.data(), name.size()};
    TVMFFIByteArray meta{metadata.data(), metadata.size()};
    if (TVMFFIFunctionSetGlobalWithMetadata(&key, details::ObjectUnsafe::GetHeader(f.get()),
                                            override, &meta) != 0) {
      throw details::MoveFromRaised();
    }
  }

  const FunctionObj* get() const { return static_cast<const FunctionObj*>(data_.get()); }
  const FunctionObj* operator->() const { return get(); }
  using ContainerType = FunctionObj;
};

/*! A Function with a fixed C++ signature, e.g. TypedFunction<int(int)>. */
template <typename FType>
class TypedFunction;

template <typename R, typename... Args>
class TypedFunction<R(Args...)> {
 public:
  TypedFunction() = default;
  TypedFunction(Function f) : f_(std::move(f)) {}  // NOLINT
  template <typename TCallable,
            typename = std::enable_if_t<std::is_invocable_r_v<R, TCallable, Args...>>>
  TypedFunction(TCallable callable, std::string name = "<anonymous>")  // NOLINT
      : f_(Function::FromTyped(std::function<R(Args...)>(std::move(callable)), std::move(name))) {}
  R operator()(Args... args) const {
    if constexpr (std::is_void_v<R>) {
      f_(std::forward<Args>(args)...);
    } else {
      return f_(std::forward<Args>(args)...).template cast<R>();
    }
  }
  const Function& packed() const { return f_; }
  operator Function() const { return f_; }  // NOLINT

 private:
  Function f_;
};

template <typename R, typename... Args>
struct TypeTraits<TypedFunction<R(Args...)>> {
  static constexpr bool enabled = true;
  static void CopyToAnyView(const TypedFunction<R(Args...)>& f, TVMFFIAny* out) {
    TypeTraits<Function>::CopyToAnyView(f.packed(), out);
  }
  static void MoveToAny(TypedFunction<R(Args...)> f, TVMFFIAny* out) {
    TypeTraits<Function>::MoveToAny(f.packed(), out);
  }
  static std::optional<TypedFunction<R(Args...)>> TryCastFromAnyView(const TVMFFIAny* v) {
    std::optional<Function> f = TypeTraits<Function>::TryCastFromAnyView(v);
    if (!f.has_value()) return std::nullopt;
    return TypedFunction<R(Args...)>(*f);
  }
  static std::string TypeStr() { return "ffi.Function"; }
  static std::string TypeSchema() { return details::FunctionTypeSchema<R, Args...>(); }
};

namespace details {
/*! Registers global functions at load time: GlobalDef().def("name", callable). */
class GlobalDef {
 public:
  // `doc` is accepted for apache-tvm-ffi's signature; global functions carry no docs here yet.
  // The metadata records the C++ signature as a type schema (get_global_func_metadata, stubgen).
  template <typename TCallable>
  GlobalDef& def(const std::string& name, TCallable callable, const char* doc = "") {
    (void)doc;
    Function::SetGlobal(name, Function::FromTyped(std::move(callable), name), true,
                        TypeSchemaMetadata(TypeSchemaOfCallable<TCallable>()));
    return *this;
  }
  template <typename TCallable>
  GlobalDef& def_packed(const std::string& name, TCallable callable, const char* doc = "") {
    (void)doc;
    Function::SetGlobal(name, Function::FromPacked(std::move(callable)), true,
                        TypeSchemaMetadata(TypeSchemaLeaf("ffi.Function")));
    return *this;
  }
};
}  // namespace details

namespace reflection {
using GlobalDef = details::GlobalDef;
}  // namespace reflection

}  // namespace ffi
}  // namespace tvm

/*!
 * The ABI tag of the library this translation unit goes into (see c_api.h). Weak, not
 * inline: an inline variable becomes one process-wide symbol (STB_GNU_UNIQUE), and each
 * library must carry its own tag.
 */
extern "C" {
TVM_FFI_DLL_EXPORT __attribute__((weak, used)) uint32_t __tvm_ffi__abi_version =
    (TVM_FFI_ABI_VERSION_MAJOR << 16) | TVM_FFI_ABI_VERSION_MINOR;
}

/*!
 * Exports a typed C++ function from a shared library as `__tvm_ffi_<ExportName>` with the
 * calling convention, plus the library's ABI tag.
 */
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                                     \
  extern "C" {                                                                                  \
  TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void*, const TVMFFIAny* args, int32_t num_args, \
                                                TVMFFIAny* result) {                            \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                  \
    static const std::string name = #ExportName;                                                \
    /* A local copy, so a lambda works too (no lambda in decltype before C++20). */             \
    static const auto fn = Function;                                                            \
    using FType = std::decay_t<decltype(fn)>;                                                   \
    ::tvm::ffi::details::CallTyped(                                                             \
        fn, name,                                                                               \
        ::tvm::ffi::PackedArgs(reinterpret_cast<const ::tvm::ffi::AnyView*>(args), num_args),   \
        reinterpret_cast<::tvm::ffi::Any*>(result),                                             \
        std::make_index_sequence<::tvm::ffi::details::FuncTraits<FType>::kNumArgs>());          \
    TVM_FFI_SAFE_CALL_END();                                                                    \
  }                                                                                             \
  }

/*!
 * Attaches a docstring to an exported function as the symbol `__tvm_ffi__doc_<ExportName>`.
 * As in apache-tvm-ffi, it is only emitted when TVM_FFI_DLL_EXPORT_INCLUDE_METADATA is 1.
 */
#ifndef TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 0
#endif
#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)                       \
  extern "C" {                                                                         \
  TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_##ExportName(void*, const TVMFFIAny*, int32_t, \
                                                     TVMFFIAny* result) {              \
    static const std::string doc = DocString;                                          \
    TVMFFIByteArray bytes{doc.data(), doc.size()};                                     \
    return TVMFFIStringFromByteArray(&bytes, result);                                  \
  }                                                                                    \
  }
#else
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)
#endif

#endif  // TVM_FFI_FUNCTION_H_
