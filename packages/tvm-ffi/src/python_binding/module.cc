// The nanobind module tvm_ffi._core: registry, conversion, containers and type registration.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdarg>

#include "core.h"

namespace nb = nanobind;

namespace tvm_ffi_py {

int InitDynObject(PyObject* module);
PyObject* MakeFieldDescriptor(const TVMFFIFieldInfo* info, int32_t owner_index);

namespace {

/*!
 * The error funnel's exit for the functions bound here (see SetError in core.h): every failure
 * sets the pending Python exception first, then comes here, and nanobind raises that exception.
 */
[[noreturn]] void ThrowPending() {
  if (!PyErr_Occurred())
    SetError(PyExc_SystemError, "tvm_ffi._core: a call failed without an error");
  throw nb::python_error();
}

/*! SetError, then ThrowPending. */
[[noreturn]] void ThrowError(PyObject* type, const char* format, ...) {
  va_list args;
  va_start(args, format);
  SetErrorV(type, format, args);
  va_end(args);
  ThrowPending();
}

/*! Raises the FFI error that an FFI C-API call left when it returned nonzero. */
void CheckFFI(int ret) {
  if (ret != 0) {
    RaiseFFIError();
    ThrowPending();
  }
}

/*! A new reference as an nb::object; NULL (a failed C-API call) raises the pending error. */
nb::object Steal(PyObject* p) {
  if (p == nullptr) ThrowPending();
  return nb::steal(p);
}

/*!
 * The handle of `obj`, which must be an initialized FFI object of type `expected_index` (of
 * any type when negative); else a TypeError naming `func`.
 */
TVMFFIObject* CheckedHandle(nb::handle obj, int32_t expected_index, const char* func) {
  if (!PyObject_TypeCheck(obj.ptr(), ObjectType)) {
    ThrowError(PyExc_TypeError, "%s: expected an FFI object, got %s", func,
               Py_TYPE(obj.ptr())->tp_name);
  }
  TVMFFIObject* h = WrappedHandle(obj.ptr());
  if (h == nullptr || (expected_index >= 0 && h->type_index != expected_index)) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(expected_index);
    std::string expected = info ? std::string(info->type_key.data, info->type_key.size) : "object";
    ThrowError(PyExc_TypeError, "%s: expected an initialized %s", func, expected.c_str());
  }
  return h;
}

const TVMFFISeqCell* ArrayCell(nb::handle arr, const char* func) {
  return TVMFFIArrayGetCell(CheckedHandle(arr, kTVMFFIArray, func));
}

const tvm::ffi::MapObj* MapOf(nb::handle m, const char* func) {
  return static_cast<const tvm::ffi::MapObj*>(
      tvm::ffi::details::ObjectUnsafe::FromHeader(CheckedHandle(m, kTVMFFIMap, func)));
}

Any ToOwned(nb::handle obj) {
  Any out;
  if (PyToAnyOwned(obj.ptr(), out.raw_mutable()) != 0) ThrowPending();
  return out;
}

nb::object ToPy(const Any& value) { return Steal(AnyViewToPy(value.raw())); }

int64_t NormalizeIndex(int64_t i, int64_t size, const char* what) {
  int64_t j = i < 0 ? i + size : i;
  if (j < 0 || j >= size) {
    ThrowError(PyExc_IndexError, "%s index out of range", what);
  }
  return j;
}

TVMFFIByteArray Bytes(const std::string& s) { return {s.data(), s.size()}; }

nb::object GetGlobalFunc(const std::string& name, bool allow_missing) {
  TVMFFIByteArray key = Bytes(name);
  TVMFFIObjectHandle handle = nullptr;
  CheckFFI(TVMFFIFunctionGetGlobal(&key, &handle));
  if (handle == nullptr) {
    if (allow_missing) return nb::none();
    ThrowError(PyExc_ValueError, "get_global_func: no global function is registered as `%s`",
               name.c_str());
  }
  return Steal(NewFunction(static_cast<TVMFFIObject*>(handle)));
}

void RegisterGlobalFunc(const std::string& name, nb::handle func, bool override) {
  Any f = ToOwned(func);
  if (f.type_index() != kTVMFFIFunction) {
    ThrowError(PyExc_TypeError,
               "register_global_func: argument `f` for `%s` must be callable, got %s", name.c_str(),
               Py_TYPE(func.ptr())->tp_name);
  }
  TVMFFIByteArray key = Bytes(name);
  CheckFFI(TVMFFIFunctionSetGlobal(&key, f.raw()->v_obj, override));
}

nb::object TypeInfoDict(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr)
    ThrowError(PyExc_KeyError, "no type has index %d", static_cast<int>(type_index));
  nb::dict out;
  out["type_index"] = info->type_index;
  out["type_key"] = nb::str(info->type_key.data, info->type_key.size);
  nb::list ancestors;
  for (int32_t d = 0; d < info->type_depth; ++d) {
    ancestors.append(
        nb::str(info->type_ancestors[d]->type_key.data, info->type_ancestors[d]->type_key.size));
  }
  out["ancestors"] = ancestors;
  nb::list fields, field_meta;  // field_meta[i]: (flags, size, offset, static type index)
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo& f = info->fields[i];
    fields.append(nb::make_tuple(nb::str(f.name.data, f.name.size), nb::str(f.doc.data, f.doc.size),
                                 Steal(MakeFieldDescriptor(&f, info->type_index))));
    field_meta.append(nb::make_tuple(f.flags, f.size, f.offset, f.field_static_type_index));
  }
  out["fields"] = fields;
  out["field_meta"] = field_meta;
  nb::list methods;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    const TVMFFIMethodInfo& m = info->methods[i];
    methods.append(nb::make_tuple(
        nb::str(m.name.data, m.name.size), nb::str(m.doc.data, m.doc.size),
        bool(m.flags & kTVMFFIMethodFlagBitMaskStatic), Steal(AnyViewToPy(&m.method))));
  }
  out["methods"] = methods;
  return out;
}

int32_t TypeKeyToIndex(const std::string& key) {
  TVMFFIByteArray bytes = Bytes(key);
  int32_t index = -1;
  CheckFFI(TVMFFITypeKeyToIndex(&bytes, &index));
  return index;
}

/*! The hook behind TVMFFIEnvCheckSignals: runs Python's signal handlers, their error raised as an
 * FFI error. */
int CheckSignalsHook() {
  GILGuard gil;
  if (!gil.ok() || PyErr_CheckSignals() == 0) return 0;
  SetFFIErrorFromPython();
  return -1;
}

}  // namespace
}  // namespace tvm_ffi_py

using namespace tvm_ffi_py;  // NOLINT

NB_MODULE(_core, m) {
  m.doc() = "Native core of tvm_ffi: the call path, conversions and object types.";
  // Object first: Function and Tensor derive from it.
  if (InitObjectTypes(m.ptr()) < 0 || InitFunctionType(m.ptr()) < 0 ||
      InitTensorType(m.ptr()) < 0 || InitDeviceType(m.ptr()) < 0 || InitDynObject(m.ptr()) < 0) {
    ThrowPending();
  }
  // Native loops calling TVMFFIEnvCheckSignals see Python's pending signals (Ctrl-C).
  CheckFFI(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", reinterpret_cast<void*>(&CheckSignalsHook)));
  RegisterClass(kTVMFFIFunction, reinterpret_cast<PyObject*>(FunctionType));
  RegisterClass(kTVMFFITensor, reinterpret_cast<PyObject*>(TensorType));
  RegisterClass(kTVMFFIObject, reinterpret_cast<PyObject*>(ObjectType));
  // Registered at import, so it runs after the atexit handlers of what is imported later.
  nb::module_::import_("atexit").attr("register")(nb::cpp_function(&BeginShutdown));
  TVMFFIVersion version;
  TVMFFIGetVersion(&version);
  m.attr("ABI_VERSION") = nb::make_tuple(version.major, version.minor);

  // ---- global functions ----
  m.def("get_global_func", &GetGlobalFunc, nb::arg("name"), nb::arg("allow_missing") = false);
  m.def("register_global_func", &RegisterGlobalFunc, nb::arg("name"), nb::arg("f"),
        nb::arg("override") = false);
  m.def("remove_global_func", [](const std::string& name) {
    TVMFFIByteArray key = Bytes(name);
    int removed = 0;
    CheckFFI(TVMFFIFunctionRemoveGlobal(&key, &removed));
    return removed != 0;
  });
  m.def("list_global_func_names", []() {
    TVMFFIObjectHandle handle = nullptr;
    CheckFFI(TVMFFIFunctionListGlobalNames(&handle));
    Any names =
        Any(tvm::ffi::ObjectRef(tvm::ffi::details::ObjectUnsafe::FromOwnedHeader<tvm::ffi::Object>(
            static_cast<TVMFFIObject*>(handle))));
    const TVMFFISeqCell* cell = TVMFFIArrayGetCell(names.raw()->v_obj);
    nb::list out;
    for (int64_t i = 0; i < cell->size; ++i) out.append(Steal(AnyViewToPy(&cell->data[i])));
    return out;
  });

  // ---- conversion ----
  m.def("convert", [](nb::handle obj) { return ToPy(ToOwned(obj)); }, nb::arg("value").none());
  m.def(
      "from_dlpack",
      [](nb::handle obj) {
        int is_producer = 0;
        TVMFFIObject* h = TensorFromDLPackProducer(obj.ptr(), &is_producer);
        if (h == nullptr) ThrowPending();
        if (RefusesTorchExport(obj.ptr(), h)) {
          tvm::ffi::Object::DecRefHeader(h);
          ThrowPending();
        }
        return Steal(WrapObject(h));
      },
      nb::arg("tensor").none());

  // ---- object classes and reflection ----
  m.def("type_key_to_index", &TypeKeyToIndex);
  m.def("register_object_class", [](const std::string& key, nb::handle cls) {
    int32_t index = TypeKeyToIndex(key);
    if (!PyType_Check(cls.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), ObjectType)) {
      ThrowError(PyExc_TypeError, "register_object(\"%s\"): the class must subclass tvm_ffi.Object",
                 key.c_str());
    }
    if (!CheckHandleFits(reinterpret_cast<PyTypeObject*>(cls.ptr()), index, "register_object")) {
      ThrowPending();
    }
    RegisterClass(index, cls.ptr());
    return index;
  });
  m.def("type_info", &TypeInfoDict);
  m.def(
      "set_object_hooks",
      [](nb::handle repr, nb::handle copy, nb::handle deepcopy, nb::handle reduce) {
        SetObjectHooks(repr.ptr(), copy.ptr(), deepcopy.ptr(), reduce.ptr());
      },
      nb::arg("repr").none(), nb::arg("copy").none(), nb::arg("deepcopy").none(),
      nb::arg("reduce").none());
  m.def("class_for_type_index",
        [](int32_t type_index) { return nb::borrow(ClassForTypeIndex(type_index)); });
  // Metadata JSON text of a global function / a type's field (kind 0) or method (kind 1).
  m.def("global_func_metadata", [](const std::string& name) -> nb::object {
    TVMFFIByteArray key = Bytes(name);
    Any out;
    CheckFFI(TVMFFIFunctionGetGlobalMetadata(&key, out.raw_mutable()));
    std::optional<std::string> text = out.try_cast<std::string>();
    return text.has_value() ? nb::object(nb::str(text->data(), text->size())) : nb::none();
  });
  m.def("member_metadata",
        [](int32_t type_index, int32_t kind, const std::string& name) -> nb::object {
          TVMFFIByteArray key = Bytes(name);
          Any out;
          CheckFFI(TVMFFITypeGetMemberMetadata(type_index, kind, &key, out.raw_mutable()));
          std::optional<std::string> text = out.try_cast<std::string>();
          return text.has_value() ? nb::object(nb::str(text->data(), text->size())) : nb::none();
        });
  // (found, value) of a field's registered default (reflection::default_value).
  m.def("field_default", [](int32_t type_index, const std::string& name) -> nb::object {
    TVMFFIByteArray key = Bytes(name);
    Any out;
    int32_t found = 0;
    CheckFFI(TVMFFITypeGetFieldDefault(type_index, &key, out.raw_mutable(), &found));
    return nb::make_tuple(found != 0, ToPy(out));
  });
  m.def("type_metadata", [](int32_t type_index) -> nb::object {
    const TVMFFITypeMetadata* meta = TVMFFIGetTypeMetadata(type_index);
    if (meta == nullptr) return nb::none();
    return nb::make_tuple(nb::str(meta->doc.data, meta->doc.size), meta->structural_eq_hash_kind);
  });
  m.def(
      "set_dtype_class",
      [](nb::handle cls) {
        if (!PyType_Check(cls.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &PyUnicode_Type)) {
          ThrowError(PyExc_TypeError, "set_dtype_class: argument `cls` must be a subclass of str");
        }
        SetDTypeClass(cls.ptr());
        RegisterClass(kTVMFFIDataType, cls.ptr());
      },
      nb::arg("cls").none());
  m.def("set_object_convertible_class", [](nb::handle cls) {
    if (!PyType_Check(cls.ptr())) {
      ThrowError(PyExc_TypeError, "set_object_convertible_class: argument `cls` must be a class");
    }
    SetObjectConvertibleClass(cls.ptr());
  });
  m.def("set_error_hooks", [](nb::handle make, nb::handle kind_of, nb::handle fmt) {
    SetErrorHooks(make.ptr(), kind_of.ptr(), fmt.ptr());
  });
  m.def("error_fields", [](nb::handle err) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCell(CheckedHandle(err, kTVMFFIError, "error_fields"));
    return nb::make_tuple(nb::str(cell->kind.data, cell->kind.size),
                          nb::str(cell->message.data, cell->message.size),
                          nb::str(cell->backtrace.data, cell->backtrace.size));
  });
  m.def("parse_dtype", [](const std::string& text) {
    TVMFFIByteArray bytes = Bytes(text);
    DLDataType t;
    CheckFFI(TVMFFIDataTypeFromString(&bytes, &t));
    return nb::make_tuple(int(t.code), int(t.bits), int(t.lanes));
  });
  m.def("dtype_to_str", [](int code, int bits, int lanes) {
    bool is_void = code == kDLOpaqueHandle && bits == 0 && lanes == 0;  // printed ""
    if (!is_void &&
        (code < 0 || code > 255 || bits < 0 || bits > 255 || lanes < 1 || lanes > 65535)) {
      ThrowError(
          PyExc_ValueError,
          "dtype: expected type code and bits in 0..255 and lanes in 1..65535, got (%d, %d, %d)",
          code, bits, lanes);
    }
    DLDataType t{static_cast<uint8_t>(code), static_cast<uint8_t>(bits),
                 static_cast<uint16_t>(lanes)};
    TVMFFIAny out;
    tvm::ffi::details::InitNone(&out);
    CheckFFI(TVMFFIDataTypeToString(&t, &out));
    return Steal(AnyToPyOwned(&out));
  });

  // ---- containers: direct reads of the ABI cells, no call through the registry ----
  m.def("array_new", [](nb::handle seq) {
    nb::object fast = Steal(PySequence_Fast(seq.ptr(), "Array: argument must be iterable"));
    Any arr = ToOwned(fast);
    if (arr.type_index() != kTVMFFIArray)
      ThrowError(PyExc_TypeError, "Array: argument must be iterable");
    return ToPy(arr);
  });
  m.def("array_size", [](nb::handle arr) { return ArrayCell(arr, "Array.__len__")->size; });
  m.def("array_getitem", [](nb::handle arr, nb::handle index) {
    const TVMFFISeqCell* cell = ArrayCell(arr, "Array.__getitem__");
    // Huge ints are out of range (IndexError), like a list; non-integers are a TypeError.
    Py_ssize_t i = PyNumber_AsSsize_t(index.ptr(), PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) ThrowPending();
    return Steal(AnyViewToPy(&cell->data[NormalizeIndex(i, cell->size, "Array")]));
  });
  m.def("array_to_list", [](nb::handle arr) {
    const TVMFFISeqCell* cell = ArrayCell(arr, "Array");
    PyObject* out = PyList_New(cell->size);
    if (out == nullptr) ThrowPending();
    for (int64_t i = 0; i < cell->size; ++i) {
      PyObject* item = AnyViewToPy(&cell->data[i]);
      if (item == nullptr) {
        Py_DECREF(out);
        ThrowPending();
      }
      PyList_SET_ITEM(out, i, item);
    }
    return nb::steal(out);
  });
  m.def("map_new", [](nb::handle dict) {
    Any map = ToOwned(dict);
    if (map.type_index() != kTVMFFIMap) ThrowError(PyExc_TypeError, "Map: argument must be a dict");
    return ToPy(map);
  });
  m.def("map_size",
        [](nb::handle map) { return static_cast<int64_t>(MapOf(map, "Map.__len__")->size()); });
  m.def(
      "map_get",
      [](nb::handle map, nb::handle key, nb::handle default_value) -> nb::object {
        const tvm::ffi::MapObj* obj = MapOf(map, "Map.get");
        const Any* v = obj->Find(ToOwned(key));
        if (v == nullptr) return nb::borrow(default_value);
        return ToPy(*v);
      },
      nb::arg("map"), nb::arg("key").none(), nb::arg("default").none());
  m.def(
      "map_getitem",
      [](nb::handle map, nb::handle key) {
        const Any* v = MapOf(map, "Map.__getitem__")->Find(ToOwned(key));
        if (v == nullptr) {
          PyErr_SetObject(PyExc_KeyError,
                          key.ptr());  // the key itself, as dict's KeyError carries it
          ThrowPending();
        }
        return ToPy(*v);
      },
      nb::arg("map"), nb::arg("key").none());
  m.def(
      "map_contains",
      [](nb::handle map, nb::handle key) {
        return MapOf(map, "Map.__contains__")->Find(ToOwned(key)) != nullptr;
      },
      nb::arg("map"), nb::arg("key").none());
  m.def("map_items", [](nb::handle map) {
    const tvm::ffi::MapObj* obj = MapOf(map, "Map.items");
    nb::list out;  // in insertion order
    for (const auto& [key, value] : *obj) {
      nb::object k = Steal(AnyViewToPy(key.raw()));
      nb::object v = Steal(AnyViewToPy(value.raw()));
      out.append(Steal(PyTuple_Pack(2, k.ptr(), v.ptr())));
    }
    return out;
  });
  m.def("shape_new", [](nb::handle seq) {
    nb::object fast =
        Steal(PySequence_Fast(seq.ptr(), "Shape: argument must be a sequence of ints"));
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
    std::vector<int64_t> dims(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      // Held: an element's __index__ may clear the list it came from.
      nb::object item = nb::borrow(PySequence_Fast_GET_ITEM(fast.ptr(), i));
      if (!PyIndex_Check(item.ptr())) {
        ThrowError(PyExc_TypeError, "Shape: element %zd must be an int, got %s", i,
                   Py_TYPE(item.ptr())->tp_name);
      }
      dims[i] = PyLong_AsLongLong(item.ptr());
      if (dims[i] == -1 && PyErr_Occurred()) ThrowPending();
      if (PySequence_Fast_GET_SIZE(fast.ptr()) != n) {
        ThrowError(PyExc_RuntimeError, "list changed size during conversion to an FFI Shape");
      }
    }
    return ToPy(Any(tvm::ffi::Shape(dims)));
  });
  m.def("shape_to_tuple", [](nb::handle shape) {
    const TVMFFIShapeCell* cell = TVMFFIShapeGetCell(CheckedHandle(shape, kTVMFFIShape, "Shape"));
    nb::object out = Steal(PyTuple_New(cell->size));
    for (size_t i = 0; i < cell->size; ++i) {
      PyTuple_SET_ITEM(out.ptr(), i, Steal(PyLong_FromLongLong(cell->data[i])).release().ptr());
    }
    return out;
  });
}
