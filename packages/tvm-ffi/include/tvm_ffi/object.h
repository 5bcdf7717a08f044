// Reference-counted objects: Object, ObjectPtr, WeakObjectPtr, ObjectRef and type registration.
#ifndef TVM_FFI_OBJECT_H_
#define TVM_FFI_OBJECT_H_

#include <tvm_ffi/base.h>

#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Object;
template <typename T>
class ObjectPtr;

namespace details {
struct ObjectUnsafe;
constexpr uint64_t kStrongOne = 1;
constexpr uint64_t kWeakOne = uint64_t(1) << 32;
inline int32_t GetOrAllocTypeIndex(const char* type_key, int32_t static_index,
                                   int32_t parent_index) {
  TVMFFIByteArray key{type_key, std::char_traits<char>::length(type_key)};
  return TVMFFITypeGetOrAllocIndex(&key, static_index, parent_index);
}
inline bool IsSubtype(int32_t child_index, int32_t parent_index) {
  if (child_index == parent_index) return true;
  const TVMFFITypeInfo* child = TVMFFIGetTypeInfo(child_index);
  const TVMFFITypeInfo* parent = TVMFFIGetTypeInfo(parent_index);
  if (child == nullptr || parent == nullptr) return false;
  return child->type_depth > parent->type_depth &&
         child->type_ancestors[parent->type_depth]->type_index == parent_index;
}
}  // namespace details

/*!
 * Base of every FFI object. The C header TVMFFIObject sits at offset 0 of this class (it
 * has no virtual functions), and handles always point at this base subobject.
 */
class Object {
 public:
  Object() {
    header_.combined_ref_count = 0;
    header_.type_index = 0;
    header_.__padding = 0;
    header_.deleter = nullptr;
  }
  // Copying an object's contents makes a fresh object: counts are never copied.
  Object(const Object&) : Object() {}
  Object& operator=(const Object&) { return *this; }

  int32_t type_index() const { return header_.type_index; }
  std::string GetTypeKey() const {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header_.type_index);
    return info ? std::string(info->type_key.data, info->type_key.size) : std::string("<unknown>");
  }
  template <typename T>
  bool IsInstance() const {
    if (std::is_same_v<T, Object>) return true;
    int32_t target = T::RuntimeTypeIndex();
    return header_.type_index == target ||
           (!T::_type_final && details::IsSubtype(header_.type_index, target));
  }
  /*! Number of strong references. */
  uint32_t use_count() const {
    return static_cast<uint32_t>(__atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED));
  }
  uint32_t weak_use_count() const {
    return static_cast<uint32_t>(__atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) >>
                                 32);
  }

  static constexpr const char* _type_key = "ffi.Object";
  static constexpr bool _type_final = false;
  static int32_t RuntimeTypeIndex() { return kTVMFFIObject; }

 protected:
  TVMFFIObject header_;

  void IncRef() {
    __atomic_fetch_add(&header_.combined_ref_count, details::kStrongOne, __ATOMIC_RELAXED);
  }
  void DecRef() { DecRefHeader(&header_); }
  void IncWeakRef() {
    __atomic_fetch_add(&header_.combined_ref_count, details::kWeakOne, __ATOMIC_RELAXED);
  }
  void DecWeakRef() {
    uint64_t old =
        __atomic_fetch_sub(&header_.combined_ref_count, details::kWeakOne, __ATOMIC_ACQ_REL);
    if ((old >> 32) == 1) header_.deleter(&header_, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
  bool TryPromoteWeak() {
    uint64_t old = __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED);
    while (static_cast<uint32_t>(old) != 0) {
      if (__atomic_compare_exchange_n(&header_.combined_ref_count, &old, old + details::kStrongOne,
                                      true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        return true;
      }
    }
    return false;
  }

 public:
  // All strong references together hold one weak reference (see c_api.h). The last strong
  // reference goes to the library, which runs the deleter without recursing without bound
  // (a million-deep Array of Arrays must not overflow the stack).
  static void DecRefHeader(TVMFFIObject* h) {
    uint64_t old =
        __atomic_fetch_sub(&h->combined_ref_count, details::kStrongOne, __ATOMIC_RELEASE);
    if (static_cast<uint32_t>(old) == 1) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      TVMFFIObjectDestroyUnreferenced(h);
    }
  }
  static void IncRefHeader(TVMFFIObject* h) {
    __atomic_fetch_add(&h->combined_ref_count, details::kStrongOne, __ATOMIC_RELAXED);
  }

  friend struct details::ObjectUnsafe;
  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
};

/*!
 * Declares the type key and runtime index of an object class registered at first use.
 * Final classes (never subclassed) let casts compare one index instead of the ancestry.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_IMPL_(TypeKey, ParentType, IsFinal)                        \
  static constexpr const char* _type_key = TypeKey;                                            \
  static constexpr bool _type_final = IsFinal;                                                 \
  using _type_parent = ParentType;                                                             \
  static int32_t RuntimeTypeIndex() {                                                          \
    static int32_t tindex =                                                                    \
        ::tvm::ffi::details::GetOrAllocTypeIndex(TypeKey, -1, ParentType::RuntimeTypeIndex()); \
    return tindex;                                                                             \
  }
#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  TVM_FFI_DECLARE_OBJECT_INFO_IMPL_(TypeKey, ParentType, false)
/*! apache-tvm-ffi's spelling of a final object class. */
#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  TVM_FFI_DECLARE_OBJECT_INFO_IMPL_(TypeKey, ParentType, true)
/*! The older spelling of the same: the type is final, so casts compare one index. */
#define TVM_FFI_DECLARE_FINAL_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  TVM_FFI_DECLARE_OBJECT_INFO_IMPL_(TypeKey, ParentType, true)

/*!
 * A C++ view of a type registered by another library (the headers tvm_ffi.dataclasses.gen_abi_cpp
 * writes): the index is looked up by key at first use, never allocated (an unregistered key is a
 * KeyError); Depth is the type's depth below Object.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(TypeKey, Depth)                 \
  static constexpr const char* _type_key = TypeKey;                        \
  static constexpr bool _type_final = false;                               \
  static constexpr int32_t _type_depth = Depth;                            \
  static int32_t RuntimeTypeIndex() {                                      \
    static int32_t tindex = ::tvm::ffi::details::LookupTypeIndex(TypeKey); \
    return tindex;                                                         \
  }

/*!
 * Whether T is an object class; a header may specialize it to true for a class it only
 * declares (std::is_base_of_v needs the complete type).
 */
template <typename T>
inline constexpr bool is_object_subclass_v = std::is_base_of_v<Object, T>;

/*! For the built-in kinds whose index is fixed by the ABI. */
#define TVM_FFI_DECLARE_STATIC_OBJECT_INFO(TypeKey, TypeName, ParentType, Index) \
  static constexpr const char* _type_key = TypeKey;                              \
  static constexpr bool _type_final = true;                                      \
  using _type_parent = ParentType;                                               \
  static int32_t RuntimeTypeIndex() { return Index; }

namespace details {

struct ObjectUnsafe {
  static TVMFFIObject* GetHeader(const Object* obj) {
    return const_cast<TVMFFIObject*>(&obj->header_);
  }
  static Object* FromHeader(TVMFFIObject* h) { return reinterpret_cast<Object*>(h); }
  static void IncRef(const Object* obj) { const_cast<Object*>(obj)->IncRef(); }
  static void DecRef(const Object* obj) { const_cast<Object*>(obj)->DecRef(); }
  template <typename T>
  static ObjectPtr<T> FromOwnedHeader(TVMFFIObject* h);
  template <typename T>
  static ObjectPtr<T> FromBorrowedHeader(TVMFFIObject* h);
  template <typename T>
  static TVMFFIObject* MoveToHeader(ObjectPtr<T>&& ptr);
};

template <typename T>
void ObjectDeleter(TVMFFIObject* h, int flags) {
  T* obj = static_cast<T*>(reinterpret_cast<Object*>(h));
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->T::~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) ::operator delete(static_cast<void*>(obj));
}

}  // namespace details

/*! A strong reference to an object of class T. */
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() = default;
  ObjectPtr(std::nullptr_t) {}  // NOLINT
  ObjectPtr(const ObjectPtr& other) : data_(other.data_) {
    if (data_) data_->IncRef();
  }
  ObjectPtr(ObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(const ObjectPtr<U>& other) : data_(other.data_) {
    if (data_) data_->IncRef();
  }  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(ObjectPtr<U>&& other) : data_(other.data_) {
    other.data_ = nullptr;
  }  // NOLINT
  ~ObjectPtr() { reset(); }
  ObjectPtr& operator=(ObjectPtr other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }

  T* get() const { return data_; }
  T* operator->() const { return data_; }
  T& operator*() const { return *data_; }
  explicit operator bool() const { return data_ != nullptr; }
  bool operator==(const ObjectPtr& other) const { return data_ == other.data_; }
  bool operator!=(const ObjectPtr& other) const { return data_ != other.data_; }
  bool operator==(std::nullptr_t) const { return data_ == nullptr; }
  bool operator!=(std::nullptr_t) const { return data_ != nullptr; }
  uint32_t use_count() const { return data_ ? data_->use_count() : 0; }
  bool unique() const { return use_count() == 1; }
  void reset() {
    if (data_) {
      static_cast<Object*>(data_)->DecRef();
      data_ = nullptr;
    }
  }

 private:
  explicit ObjectPtr(T* data) : data_(data) {}
  T* data_{nullptr};
  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct details::ObjectUnsafe;
  template <typename U, typename... Args>
  friend ObjectPtr<U> make_object(Args&&... args);
  template <typename U, typename E, typename... Args>
  friend ObjectPtr<U> make_inplace_array_object(size_t num_elems, Args&&... args);
  template <typename U>
  friend ObjectPtr<U> GetObjectPtr(const U* ptr);
};

/*! A weak reference: does not keep the contents alive; lock() gives a strong one. */
template <typename T>
class WeakObjectPtr {
 public:
  WeakObjectPtr() = default;
  explicit WeakObjectPtr(const ObjectPtr<T>& strong) : data_(strong.data_) {
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr(const WeakObjectPtr& other) : data_(other.data_) {
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr& operator=(WeakObjectPtr other) {
    std::swap(data_, other.data_);
    return *this;
  }
  ~WeakObjectPtr() {
    if (data_) static_cast<Object*>(data_)->DecWeakRef();
  }
  ObjectPtr<T> lock() const {
    if (data_ && static_cast<Object*>(data_)->TryPromoteWeak()) return ObjectPtr<T>(data_);
    return ObjectPtr<T>();
  }
  bool expired() const { return data_ == nullptr || data_->use_count() == 0; }

 private:
  T* data_{nullptr};
};

template <typename T>
ObjectPtr<T> details::ObjectUnsafe::FromOwnedHeader(TVMFFIObject* h) {
  return ObjectPtr<T>(static_cast<T*>(reinterpret_cast<Object*>(h)));
}
template <typename T>
ObjectPtr<T> details::ObjectUnsafe::FromBorrowedHeader(TVMFFIObject* h) {
  if (h) Object::IncRefHeader(h);
  return ObjectPtr<T>(static_cast<T*>(reinterpret_cast<Object*>(h)));
}
template <typename T>
TVMFFIObject* details::ObjectUnsafe::MoveToHeader(ObjectPtr<T>&& ptr) {
  T* data = ptr.data_;
  ptr.data_ = nullptr;
  return data ? &static_cast<Object*>(data)->header_ : nullptr;
}

namespace details {
/*! Constructs T in `bytes` of fresh memory and fills in its header: one strong reference. */
template <typename T, typename... Args>
T* NewObject(size_t bytes, Args&&... args) {
  void* mem = ::operator new(bytes);
  T* obj = new (mem) T(std::forward<Args>(args)...);
  TVMFFIObject* h = ObjectUnsafe::GetHeader(obj);
  h->type_index = T::RuntimeTypeIndex();
  h->deleter = ObjectDeleter<T>;
  h->combined_ref_count = kWeakOne | kStrongOne;
  return obj;
}
}  // namespace details

/*! Allocates an object of class T and returns the first strong reference to it. */
template <typename T, typename... Args>
ObjectPtr<T> make_object(Args&&... args) {
  return ObjectPtr<T>(details::NewObject<T>(sizeof(T), std::forward<Args>(args)...));
}

/*! Allocates T followed by room for num_elems values of E (for strings, shapes). */
template <typename T, typename E, typename... Args>
ObjectPtr<T> make_inplace_array_object(size_t num_elems, Args&&... args) {
  return ObjectPtr<T>(
      details::NewObject<T>(sizeof(T) + num_elems * sizeof(E), std::forward<Args>(args)...));
}

/*! A new strong reference from a raw pointer to a live object. */
template <typename T>
ObjectPtr<T> GetObjectPtr(const T* ptr) {
  if (ptr) details::ObjectUnsafe::IncRef(ptr);
  return ObjectPtr<T>(const_cast<T*>(ptr));
}

/*! Base of the typed, nullable references to objects (String, Array, Function, ...). */
class ObjectRef {
 public:
  ObjectRef() = default;
  explicit ObjectRef(ObjectPtr<Object> data) : data_(std::move(data)) {}
  const Object* get() const { return data_.get(); }
  const Object* operator->() const { return data_.get(); }
  bool defined() const { return data_ != nullptr; }
  bool same_as(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator==(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator!=(const ObjectRef& other) const { return data_ != other.data_; }
  uint32_t use_count() const { return data_.use_count(); }
  int32_t type_index() const { return data_ ? data_->type_index() : kTVMFFINone; }
  std::string GetTypeKey() const { return data_ ? data_->GetTypeKey() : "None"; }
  template <typename T>
  const T* as() const {
    return (data_ && data_->IsInstance<T>()) ? static_cast<const T*>(data_.get()) : nullptr;
  }

  using ContainerType = Object;
  /*! Subclasses that define their own TypeTraits set this. */
  static constexpr bool _custom_type_traits = false;

 protected:
  ObjectPtr<Object> data_;
  Object* get_mutable() const { return data_.get(); }
  friend struct details::ObjectUnsafe;
  friend struct ObjectRefAccess;
};

/*! Moves references in and out of ObjectRefs without touching counts. */
struct ObjectRefAccess {
  template <typename R>
  static R FromPtr(ObjectPtr<Object> ptr) {
    R ref;
    ref.data_ = std::move(ptr);
    return ref;
  }
  static const ObjectPtr<Object>& GetPtr(const ObjectRef& ref) { return ref.data_; }
  static ObjectPtr<Object>&& MovePtr(ObjectRef&& ref) { return std::move(ref.data_); }
};

#define TVM_FFI_DEFINE_OBJECT_REF_METHODS(TypeName, ParentType, ObjectName)                    \
  TypeName() = default;                                                                        \
  explicit TypeName(::tvm::ffi::ObjectPtr<::tvm::ffi::Object> n) : ParentType(std::move(n)) {} \
  const ObjectName* operator->() const { return static_cast<const ObjectName*>(data_.get()); } \
  const ObjectName* get() const { return static_cast<const ObjectName*>(data_.get()); }        \
  using ContainerType = ObjectName;

// apache-tvm-ffi's names for the reference methods. Both allow an empty reference here;
// a None argument is refused by the cast either way.
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName) \
  TVM_FFI_DEFINE_OBJECT_REF_METHODS(TypeName, ParentType, ObjectName)
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName) \
  TVM_FFI_DEFINE_OBJECT_REF_METHODS(TypeName, ParentType, ObjectName)

/*! A reference of type RefType to a live object, e.g. GetRef<IntPair>(this) in a method. */
template <typename RefType, typename ObjType>
RefType GetRef(const ObjType* ptr) {
  static_assert(std::is_base_of_v<typename RefType::ContainerType, ObjType>,
                "GetRef: ObjType must be RefType's ContainerType or derive from it");
  return ObjectRefAccess::FromPtr<RefType>(GetObjectPtr<Object>(ptr));
}

template <typename T>
struct is_object_ref : std::is_base_of<ObjectRef, T> {};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_OBJECT_H_
