// The nanobind module tvm_ffi._core: registry, conversion, containers and type registration.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "core.h"

namespace nb = nanobind;

namespace tvm_ffi_py {

int InitObjectTypes(PyObject* module);
int InitTensorType(PyObject* module);
int InitDeviceType(PyObject* module);
int InitDynObject(PyObject* module);
PyObject* MakeFieldDescriptor(const TVMFFIFieldInfo* info, int32_t owner_index);

namespace {

nb::object Steal(PyObject* p) {
  if (p == nullptr) throw nb::python_error();
  return nb::steal(p);
}

[[noreturn]] void ThrowFFIError() {
  RaiseFFIError();
  throw nb::python_error();
}

TVMFFIObject* HandleOf(nb::handle obj, int32_t expected_index, const char* func) {
  if (!PyObject_TypeCheck(obj.ptr(), &ObjectType)) {
    throw nb::type_error((std::string(func) + ": expected an FFI object, got " +
                          Py_TYPE(obj.ptr())->tp_name).c_str());
  }
  TVMFFIObject* h = reinterpret_cast<PyFFIObject*>(obj.ptr())->handle;
  if (h == nullptr || (expected_index >= 0 && h->type_index != expected_index)) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(expected_index);
    std::string expected = info ? std::string(info->type_key.data, info->type_key.size) : "object";
    throw nb::type_error((std::string(func) + ": expected an initialized " + expected).c_str());
  }
  return h;
}

const TVMFFISeqCell* ArrayCell(nb::handle arr, const char* func) {
  return TVMFFIArrayGetCell(HandleOf(arr, kTVMFFIArray, func));
}

tvm::ffi::MapObj* MapOf(nb::handle m, const char* func) {
  return static_cast<tvm::ffi::MapObj*>(
      tvm::ffi::details::ObjectUnsafe::FromHeader(HandleOf(m, kTVMFFIMap, func)));
}

Any ToOwned(nb::handle obj) {
  Any out;
  if (PyToAnyOwned(obj.ptr(), out.raw_mutable()) != 0) throw nb::python_error();
  return out;
}

nb::object ToPy(const Any& value) { return Steal(AnyViewToPy(value.raw())); }

int64_t NormalizeIndex(int64_t i, int64_t size, const char* what) {
  int64_t j = i < 0 ? i + size : i;
  if (j < 0 || j >= size) {
    throw nb::index_error((std::string(what) + " index out of range").c_str());
  }
  return j;
}

TVMFFIByteArray Bytes(const std::string& s) { return {s.data(), s.size()}; }

nb::object GetGlobalFunc(const std::string& name, bool allow_missing) {
  TVMFFIByteArray key = Bytes(name);
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFIFunctionGetGlobal(&key, &handle) != 0) ThrowFFIError();
  if (handle == nullptr) {
    if (allow_missing) return nb::none();
    throw nb::value_error(("get_global_func: no global function is registered as `" + name + "`").c_str());
  }
  return Steal(NewFunction(static_cast<TVMFFIObject*>(handle)));
}

void RegisterGlobalFunc(const std::string& name, nb::handle func, bool override) {
  Any f = ToOwned(func);
  if (f.type_index() != kTVMFFIFunction) {
    throw nb::type_error(("register_global_func: argument `f` for `" + name +
                          "` must be callable, got " + Py_TYPE(func.ptr())->tp_name).c_str());
  }
  TVMFFIByteArray key = Bytes(name);
  if (TVMFFIFunctionSetGlobal(&key, f.raw()->v_obj, override) != 0) ThrowFFIError();
}

nb::object TypeInfoDict(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) throw nb::key_error(("no type has index " + std::to_string(type_index)).c_str());
  nb::dict out;
  out["type_index"] = info->type_index;
  out["type_key"] = nb::str(info->type_key.data, info->type_key.size);
  nb::list ancestors;
  for (int32_t d = 0; d < info->type_depth; ++d) {
    ancestors.append(nb::str(info->type_ancestors[d]->type_key.data, info->type_ancestors[d]->type_key.size));
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
    methods.append(nb::make_tuple(nb::str(m.name.data, m.name.size), nb::str(m.doc.data, m.doc.size),
                                  bool(m.flags & kTVMFFIMethodFlagBitMaskStatic),
                                  Steal(AnyViewToPy(&m.method))));
  }
  out["methods"] = methods;
  return out;
}

int32_t TypeKeyToIndex(const std::string& key) {
  TVMFFIByteArray bytes = Bytes(key);
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&bytes, &index) != 0) ThrowFFIError();
  return index;
}

/*! The hook behind TVMFFIEnvCheckSignals: runs Python's signal handlers, their error raised as an FFI error. */
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
  if (InitObjectTypes(m.ptr()) < 0 || InitTensorType(m.ptr()) < 0 || InitDeviceType(m.ptr()) < 0 ||
      InitDynObject(m.ptr()) < 0) {
    throw nb::python_error();
  }
  // Native loops calling TVMFFIEnvCheckSignals see Python's pending signals (Ctrl-C).
  if (TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", reinterpret_cast<void*>(&CheckSignalsHook)) != 0) {
    ThrowFFIError();
  }
  if (PyType_Ready(&FunctionType) < 0) throw nb::python_error();
  Py_INCREF(&FunctionType);
  PyModule_AddObject(m.ptr(), "Function", reinterpret_cast<PyObject*>(&FunctionType));
  RegisterClass(kTVMFFIFunction, reinterpret_cast<PyObject*>(&FunctionType));
  RegisterClass(kTVMFFITensor, reinterpret_cast<PyObject*>(&TensorType));
  RegisterClass(kTVMFFIObject, reinterpret_cast<PyObject*>(&ObjectType));
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
    if (TVMFFIFunctionRemoveGlobal(&key, &removed) != 0) ThrowFFIError();
    return removed != 0;
  });
  m.def("list_global_func_names", []() {
    TVMFFIObjectHandle handle = nullptr;
    if (TVMFFIFunctionListGlobalNames(&handle) != 0) ThrowFFIError();
    Any names = Any(tvm::ffi::ObjectRef(tvm::ffi::details::ObjectUnsafe::FromOwnedHeader<tvm::ffi::Object>(
        static_cast<TVMFFIObject*>(handle))));
    const TVMFFISeqCell* cell = TVMFFIArrayGetCell(names.raw()->v_obj);
    nb::list out;
    for (int64_t i = 0; i < cell->size; ++i) out.append(Steal(AnyViewToPy(&cell->data[i])));
    return out;
  });

  // ---- conversion ----
  m.def("convert", [](nb::handle obj) { return ToPy(ToOwned(obj)); }, nb::arg("value").none());
  m.def("from_dlpack", [](nb::handle obj) {
    int is_producer = 0;
    TVMFFIObject* h = TensorFromDLPackProducer(obj.ptr(), &is_producer);
    if (h == nullptr) throw nb::python_error();
    if (RefusesTorchExport(obj.ptr(), h)) {
      tvm::ffi::Object::DecRefHeader(h);
      throw nb::python_error();
    }
    return Steal(WrapObject(h));
  }, nb::arg("tensor").none());

  // ---- object classes and reflection ----
  m.def("type_key_to_index", &TypeKeyToIndex);
  m.def("register_object_class", [](const std::string& key, nb::handle cls) {
    int32_t index = TypeKeyToIndex(key);
    if (!PyType_Check(cls.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &ObjectType)) {
      throw nb::type_error(("register_object(\"" + key + "\"): the class must subclass tvm_ffi.Object").c_str());
    }
    if (!CheckHandleFits(reinterpret_cast<PyTypeObject*>(cls.ptr()), index, "register_object")) {
      throw nb::python_error();
    }
    RegisterClass(index, cls.ptr());
    return index;
  });
  m.def("type_info", &TypeInfoDict);
  m.def("set_object_hooks", [](nb::handle repr, nb::handle copy, nb::handle deepcopy, nb::handle reduce) {
    SetObjectHooks(repr.ptr(), copy.ptr(), deepcopy.ptr(), reduce.ptr());
  }, nb::arg("repr").none(), nb::arg("copy").none(), nb::arg("deepcopy").none(), nb::arg("reduce").none());
  m.def("class_for_type_index", [](int32_t type_index) { return nb::borrow(ClassForTypeIndex(type_index)); });
  m.def("type_metadata", [](int32_t type_index) -> nb::object {
    const TVMFFITypeMetadata* meta = TVMFFIGetTypeMetadata(type_index);
    if (meta == nullptr) return nb::none();
    return nb::make_tuple(nb::str(meta->doc.data, meta->doc.size), meta->structural_eq_hash_kind);
  });
  m.def("set_dtype_class", [](nb::handle cls) {
    if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &PyUnicode_Type)) {
      throw nb::type_error("set_dtype_class: argument `cls` must be a subclass of str");
    }
    SetDTypeClass(cls.ptr());
    RegisterClass(kTVMFFIDataType, cls.ptr());
  }, nb::arg("cls").none());
  m.def("set_object_convertible_class", [](nb::handle cls) {
    if (!PyType_Check(cls.ptr())) throw nb::type_error("set_object_convertible_class: argument `cls` must be a class");
    SetObjectConvertibleClass(cls.ptr());
  });
  m.def("set_error_hooks", [](nb::handle make, nb::handle kind_of, nb::handle fmt) {
    SetErrorHooks(make.ptr(), kind_of.ptr(), fmt.ptr());
  });
  m.def("error_fields", [](nb::handle err) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCell(HandleOf(err, kTVMFFIError, "error_fields"));
    return nb::make_tuple(nb::str(cell->kind.data, cell->kind.size), nb::str(cell->message.data, cell->message.size),
                          nb::str(cell->backtrace.data, cell->backtrace.size));
  });
  m.def("parse_dtype", [](const std::string& text) {
    TVMFFIByteArray bytes = Bytes(text);
    DLDataType t;
    if (TVMFFIDataTypeFromString(&bytes, &t) != 0) ThrowFFIError();
    return nb::make_tuple(int(t.code), int(t.bits), int(t.lanes));
  });
  m.def("dtype_to_str", [](int code, int bits, int lanes) {
    if (code < 0 || code > 255 || bits < 0 || bits > 255 || lanes < 1 || lanes > 65535) {
      throw nb::value_error(("dtype: expected type code and bits in 0..255 and lanes in 1..65535, got (" +
                             std::to_string(code) + ", " + std::to_string(bits) + ", " + std::to_string(lanes) +
                             ")").c_str());
    }
    DLDataType t{static_cast<uint8_t>(code), static_cast<uint8_t>(bits), static_cast<uint16_t>(lanes)};
    TVMFFIAny out;
    tvm::ffi::details::InitNone(&out);
    if (TVMFFIDataTypeToString(&t, &out) != 0) ThrowFFIError();
    return Steal(AnyToPyOwned(&out));
  });

  // ---- containers: direct reads of the ABI cells, no call through the registry ----
  m.def("array_new", [](nb::handle seq) {
    nb::object fast = Steal(PySequence_Fast(seq.ptr(), "Array: argument must be iterable"));
    Any arr = ToOwned(fast);
    if (arr.type_index() != kTVMFFIArray) throw nb::type_error("Array: argument must be iterable");
    return ToPy(arr);
  });
  m.def("array_size", [](nb::handle arr) { return ArrayCell(arr, "Array.__len__")->size; });
  m.def("array_getitem", [](nb::handle arr, nb::handle index) {
    const TVMFFISeqCell* cell = ArrayCell(arr, "Array.__getitem__");
    // Huge ints are out of range (IndexError), like a list; non-integers are a TypeError.
    Py_ssize_t i = PyNumber_AsSsize_t(index.ptr(), PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) throw nb::python_error();
    return Steal(AnyViewToPy(&cell->data[NormalizeIndex(i, cell->size, "Array")]));
  });
  m.def("array_to_list", [](nb::handle arr) {
    const TVMFFISeqCell* cell = ArrayCell(arr, "Array");
    PyObject* out = PyList_New(cell->size);
    if (out == nullptr) throw nb::python_error();
    for (int64_t i = 0; i < cell->size; ++i) {
      PyObject* item = AnyViewToPy(&cell->data[i]);
      if (item == nullptr) {
        Py_DECREF(out);
        throw nb::python_error();
      }
      PyList_SET_ITEM(out, i, item);
    }
    return nb::steal(out);
  });
  m.def("map_new", [](nb::handle dict) {
    Any map = ToOwned(dict);
    if (map.type_index() != kTVMFFIMap) throw nb::type_error("Map: argument must be a dict");
    return ToPy(map);
  });
  m.def("map_size", [](nb::handle map) { return static_cast<int64_t>(MapOf(map, "Map.__len__")->entries.size()); });
  m.def("map_get", [](nb::handle map, nb::handle key, nb::handle default_value) -> nb::object {
    tvm::ffi::MapObj* obj = MapOf(map, "Map.get");
    const Any* v = obj->Find(ToOwned(key));
    if (v == nullptr) return nb::borrow(default_value);
    return ToPy(*v);
  }, nb::arg("map"), nb::arg("key").none(), nb::arg("default").none());
  m.def("map_getitem", [](nb::handle map, nb::handle key) {
    const Any* v = MapOf(map, "Map.__getitem__")->Find(ToOwned(key));
    if (v == nullptr) {
      PyErr_SetObject(PyExc_KeyError, key.ptr());
      throw nb::python_error();
    }
    return ToPy(*v);
  }, nb::arg("map"), nb::arg("key").none());
  m.def("map_contains", [](nb::handle map, nb::handle key) {
    return MapOf(map, "Map.__contains__")->Find(ToOwned(key)) != nullptr;
  }, nb::arg("map"), nb::arg("key").none());
  m.def("map_items", [](nb::handle map) {
    tvm::ffi::MapObj* obj = MapOf(map, "Map.items");
    PyObject* out = PyList_New(obj->entries.size());
    if (out == nullptr) throw nb::python_error();
    for (size_t i = 0; i < obj->entries.size(); ++i) {
      PyObject* k = AnyViewToPy(obj->entries[i].first.raw());
      PyObject* v = k ? AnyViewToPy(obj->entries[i].second.raw()) : nullptr;
      if (v == nullptr) {
        Py_XDECREF(k);
        Py_DECREF(out);
        throw nb::python_error();
      }
      PyList_SET_ITEM(out, i, PyTuple_Pack(2, k, v));
      Py_DECREF(k);
      Py_DECREF(v);
    }
    return nb::steal(out);
  });
  m.def("shape_new", [](nb::handle seq) {
    nb::object fast = Steal(PySequence_Fast(seq.ptr(), "Shape: argument must be a sequence of ints"));
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
    std::vector<int64_t> dims(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      // Held: an element's __index__ may clear the list it came from.
      nb::object item = nb::borrow(PySequence_Fast_GET_ITEM(fast.ptr(), i));
      if (!PyIndex_Check(item.ptr())) {
        throw nb::type_error(("Shape: element " + std::to_string(i) + " must be an int, got " +
                              Py_TYPE(item.ptr())->tp_name).c_str());
      }
      dims[i] = PyLong_AsLongLong(item.ptr());
      if (dims[i] == -1 && PyErr_Occurred()) throw nb::python_error();
      if (PySequence_Fast_GET_SIZE(fast.ptr()) != n) {
        PyErr_SetString(PyExc_RuntimeError, "list changed size during conversion to an FFI Shape");
        throw nb::python_error();
      }
    }
    return ToPy(Any(tvm::ffi::Shape(dims)));
  });
  m.def("shape_to_tuple", [](nb::handle shape) {
    const TVMFFIShapeCell* cell = TVMFFIShapeGetCell(HandleOf(shape, kTVMFFIShape, "Shape"));
    PyObject* out = PyTuple_New(cell->size);
    for (size_t i = 0; i < cell->size; ++i) PyTuple_SET_ITEM(out, i, PyLong_FromLongLong(cell->data[i]));
    return nb::steal(out);
  });
}
