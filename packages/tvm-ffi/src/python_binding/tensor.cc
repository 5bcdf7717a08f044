// DLPack exchange: importing any producer's tensor and exporting ours as capsules.
#include <cstring>

#include "core.h"

namespace tvm_ffi_py {
namespace {

PyObject* str_dlpack = nullptr;        // interned "__dlpack__"
PyObject* str_exchange_api = nullptr;  // interned "__dlpack_c_exchange_api__"
PyObject* max_version_kw = nullptr;    // ("max_version",)
PyObject* max_version = nullptr;       // (major, minor) we accept

PyObject* str_requires_grad = nullptr;  // interned names of the torch.Tensor state checked below
PyObject* str_is_conj = nullptr;
PyObject* str_is_neg = nullptr;

/*! Made once, at import: -1 with a Python error when out of memory. */
int InitNames() {
  str_dlpack = PyUnicode_InternFromString("__dlpack__");
  str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__");
  str_requires_grad = PyUnicode_InternFromString("requires_grad");
  str_is_conj = PyUnicode_InternFromString("is_conj");
  str_is_neg = PyUnicode_InternFromString("is_neg");
  // Interned, so producers match the keyword by identity instead of comparing strings.
  PyObject* kw = PyUnicode_InternFromString("max_version");
  max_version_kw = kw ? PyTuple_Pack(1, kw) : nullptr;
  Py_XDECREF(kw);
  max_version = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  bool ok = str_dlpack && str_exchange_api && str_requires_grad && str_is_conj && str_is_neg &&
            max_version_kw && max_version;
  return ok ? 0 : -1;
}

/*! The producer type's C exchange table, when it has one of our major version. */
const DLPackExchangeAPI* ExchangeAPIOf(PyTypeObject* type) {
  PyObject* capsule = _PyType_Lookup(type, str_exchange_api);
  if (capsule == nullptr || !PyCapsule_IsValid(capsule, "dlpack_exchange_api")) return nullptr;
  auto* api =
      static_cast<const DLPackExchangeAPI*>(PyCapsule_GetPointer(capsule, "dlpack_exchange_api"));
  for (const DLPackExchangeAPIHeader* h = api ? &api->header : nullptr; h != nullptr;
       h = h->prev_api) {
    if (h->version.major == DLPACK_MAJOR_VERSION) {
      const auto* found = reinterpret_cast<const DLPackExchangeAPI*>(h);
      return found->managed_tensor_from_py_object_no_sync ? found : nullptr;
    }
  }
  return nullptr;
}

/*! The names and adopting function of one DLPack capsule kind (versioned or legacy). */
template <typename Managed>
struct CapsuleKind;
template <>
struct CapsuleKind<DLManagedTensorVersioned> {
  static constexpr const char* kName = "dltensor_versioned";
  static constexpr const char* kUsedName = "used_dltensor_versioned";
  static int Adopt(DLManagedTensorVersioned* m, TVMFFIObjectHandle* out) {
    return TVMFFITensorFromDLPackVersioned(m, 0, 0, out);
  }
};
template <>
struct CapsuleKind<DLManagedTensor> {
  static constexpr const char* kName = "dltensor";
  static constexpr const char* kUsedName = "used_dltensor";
  static int Adopt(DLManagedTensor* m, TVMFFIObjectHandle* out) {
    return TVMFFITensorFromDLPack(m, 0, 0, out);
  }
};

/*! Adopts the tensor of a capsule of this kind, marking the capsule used as DLPack asks.
 *  Sets *matched when the capsule is of this kind. */
template <typename Managed>
TVMFFIObject* AdoptCapsuleOf(PyObject* capsule, bool* matched) {
  using Kind = CapsuleKind<Managed>;
  *matched = PyCapsule_IsValid(capsule, Kind::kName);
  if (!*matched) return nullptr;
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, Kind::kName));
  TVMFFIObjectHandle out = nullptr;
  if (Kind::Adopt(managed, &out) != 0) {
    RaiseFFIError();
    return nullptr;
  }
  PyCapsule_SetName(capsule, Kind::kUsedName);
  PyCapsule_SetDestructor(capsule, nullptr);
  return static_cast<TVMFFIObject*>(out);
}

/*! Adopts the tensor in a capsule, versioned or legacy. */
TVMFFIObject* AdoptCapsule(PyObject* capsule) {
  bool matched = false;
  TVMFFIObject* out = AdoptCapsuleOf<DLManagedTensorVersioned>(capsule, &matched);
  if (matched) return out;
  out = AdoptCapsuleOf<DLManagedTensor>(capsule, &matched);
  if (matched) return out;
  if (PyCapsule_IsValid(capsule, CapsuleKind<DLManagedTensorVersioned>::kUsedName) ||
      PyCapsule_IsValid(capsule, CapsuleKind<DLManagedTensor>::kUsedName)) {
    SetError(PyExc_BufferError,
             "from_dlpack: __dlpack__() returned a capsule that was already consumed");
    return nullptr;
  }
  SetError(PyExc_TypeError, "from_dlpack: __dlpack__() returned %s, expected a DLPack capsule",
           Py_TYPE(capsule)->tp_name);
  return nullptr;
}

/*! Frees the tensor of a capsule nobody consumed (a consumed capsule has been renamed). */
template <typename Managed>
void CapsuleDestructor(PyObject* capsule) {
  const char* name = CapsuleKind<Managed>::kName;
  if (!PyCapsule_IsValid(capsule, name)) return;
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (managed && managed->deleter) managed->deleter(managed);
}

// ---------------- Tensor type ----------------
DLTensor* DL(PyObject* self) { return TVMFFITensorGetDLTensorPtr(WrappedHandle(self)); }

bool CheckInit(PyObject* self) {
  if (WrappedHandle(self) == nullptr) {
    SetError(PyExc_ValueError, "Tensor is not initialized");
    return false;
  }
  return true;
}

PyObject* IntTuple(const int64_t* values, int32_t n) {
  PyObject* out = PyTuple_New(n);
  if (out == nullptr) return nullptr;
  for (int32_t i = 0; i < n; ++i) {
    PyObject* item = PyLong_FromLongLong(values[i]);
    if (item == nullptr) {
      Py_DECREF(out);
      return nullptr;
    }
    PyTuple_SET_ITEM(out, i, item);
  }
  return out;
}

PyObject* Tensor_shape(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  return IntTuple(DL(self)->shape, DL(self)->ndim);
}

PyObject* Tensor_strides(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  DLTensor* t = DL(self);
  if (t->strides) return IntTuple(t->strides, t->ndim);
  // Compact row-major strides, in elements.
  std::vector<int64_t> strides(t->ndim);
  int64_t s = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    strides[i] = s;
    s *= t->shape[i];
  }
  return IntTuple(strides.data(), t->ndim);
}

PyObject* Tensor_ndim(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  return PyLong_FromLong(DL(self)->ndim);
}

PyObject* Tensor_dtype(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  return DataTypeToPy(DL(self)->dtype);
}

PyObject* Tensor_device(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  auto* dev = PyObject_New(PyFFIDevice, DeviceType);
  if (dev) dev->device = DL(self)->device;
  return reinterpret_cast<PyObject*>(dev);
}

PyObject* Tensor_data_ptr(PyObject* self, void*) {
  if (!CheckInit(self)) return nullptr;
  return PyLong_FromVoidPtr(static_cast<char*>(DL(self)->data) + DL(self)->byte_offset);
}

PyObject* Tensor_dlpack_device(PyObject* self, PyObject*) {
  if (!CheckInit(self)) return nullptr;
  return Py_BuildValue("(ii)", static_cast<int>(DL(self)->device.device_type),
                       DL(self)->device.device_id);
}

/*! The data stays where it is: dl_device may only name the tensor's own device. */
bool CheckExportDevice(PyObject* self, PyObject* dl_device) {
  int type = 0, id = 0;
  if (!PyTuple_Check(dl_device) || !PyArg_ParseTuple(dl_device, "ii", &type, &id)) {
    PyErr_Clear();
    SetError(PyExc_TypeError,
             "Tensor.__dlpack__: argument `dl_device` must be a (device_type, device_id) tuple of "
             "ints, got %R",
             dl_device);
    return false;
  }
  DLDevice own = DL(self)->device;
  if (type != static_cast<int>(own.device_type) || id != own.device_id) {
    SetError(PyExc_BufferError,
             "Tensor.__dlpack__: argument `dl_device` is (%d, %d) but the tensor is on (%d, %d); "
             "export copies no data between devices",
             type, id, static_cast<int>(own.device_type), own.device_id);
    return false;
  }
  return true;
}

/*! __dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None) */
PyObject* Tensor_dlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"stream", "max_version", "dl_device", "copy", nullptr};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:__dlpack__", const_cast<char**>(kwlist),
                                   &stream, &max_version, &dl_device, &copy)) {
    return nullptr;
  }
  if (!CheckInit(self)) return nullptr;
  if (copy == Py_True) {
    SetError(PyExc_BufferError,
             "Tensor.__dlpack__: copy=True is not supported; tensors are shared");
    return nullptr;
  }
  if (dl_device != Py_None && !CheckExportDevice(self, dl_device)) return nullptr;
  bool versioned = false;
  if (max_version != Py_None) {
    if (!PyTuple_Check(max_version) || PyTuple_GET_SIZE(max_version) < 1) {
      SetError(PyExc_TypeError,
               "Tensor.__dlpack__: argument `max_version` must be a (major, minor) tuple");
      return nullptr;
    }
    long major = PyLong_AsLong(PyTuple_GET_ITEM(max_version, 0));
    if (major == -1 && PyErr_Occurred()) return nullptr;
    versioned = major >= 1;
  }
  if (versioned) {
    DLManagedTensorVersioned* managed = nullptr;
    if (TVMFFITensorToDLPackVersioned(WrappedHandle(self), &managed) != 0) return RaiseFFIError();
    PyObject* capsule = PyCapsule_New(managed, CapsuleKind<DLManagedTensorVersioned>::kName,
                                      CapsuleDestructor<DLManagedTensorVersioned>);
    if (capsule == nullptr) managed->deleter(managed);
    return capsule;
  }
  DLManagedTensor* managed = nullptr;
  if (TVMFFITensorToDLPack(WrappedHandle(self), &managed) != 0) return RaiseFFIError();
  PyObject* capsule = PyCapsule_New(managed, CapsuleKind<DLManagedTensor>::kName,
                                    CapsuleDestructor<DLManagedTensor>);
  if (capsule == nullptr) managed->deleter(managed);
  return capsule;
}

PyGetSetDef tensor_getset[] = {
    {"shape", Tensor_shape, nullptr, "shape as a tuple of ints", nullptr},
    {"strides", Tensor_strides, nullptr, "strides in elements", nullptr},
    {"ndim", Tensor_ndim, nullptr, "number of dimensions", nullptr},
    {"dtype", Tensor_dtype, nullptr, "element type", nullptr},
    {"device", Tensor_device, nullptr, "device holding the data", nullptr},
    {"data_ptr", Tensor_data_ptr, nullptr, "address of the first element", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef tensor_methods[] = {
    {"__dlpack__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Tensor_dlpack)),
     METH_VARARGS | METH_KEYWORDS, "Exports the tensor as a DLPack capsule (zero copy)."},
    {"__dlpack_device__", Tensor_dlpack_device, METH_NOARGS, "(device_type, device_id)"},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot tensor_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(ObjectDealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(ObjectTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(ObjectClear)},
    {Py_tp_getset, tensor_getset},
    {Py_tp_methods, tensor_methods},
    {Py_tp_doc,
     const_cast<char*>("An n-dimensional array shared with other frameworks through DLPack.")},
    {0, nullptr}};

PyType_Spec tensor_spec = {"tvm_ffi.core.Tensor", sizeof(PyFFIObject), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
                           tensor_slots};

}  // namespace

PyTypeObject* TensorType = nullptr;

namespace {

/*! 1 when obj's `name` attribute or method (called without arguments) is true; 0 when false or
 * absent. */
int TruthOf(PyObject* obj, PyObject* name, bool call) {
  PyObject* value =
      call ? PyObject_VectorcallMethod(name, &obj, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr)
           : PyObject_GetAttr(obj, name);
  if (value == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 0;
  }
  int truth = PyObject_IsTrue(value);
  Py_DECREF(value);
  return truth;
}

/*! The tensor of a producer, or NULL with an error; see TensorFromDLPackProducer. */
TVMFFIObject* AdoptFromProducer(PyObject* obj) {
  const DLPackExchangeAPI* api = ExchangeAPIOf(Py_TYPE(obj));
  if (api != nullptr) {
    DLManagedTensorVersioned* managed = nullptr;
    if (api->managed_tensor_from_py_object_no_sync(obj, &managed) != 0 || managed == nullptr) {
      if (!PyErr_Occurred())
        SetError(PyExc_BufferError, "from_dlpack: the producer's exchange API failed");
      return nullptr;
    }
    TVMFFIObjectHandle out = nullptr;
    if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, &out) != 0) {
      if (managed->deleter) managed->deleter(managed);
      RaiseFFIError();
      return nullptr;
    }
    return static_cast<TVMFFIObject*>(out);
  }
  // Ask for the versioned capsule first; producers that predate it reject the keyword.
  PyObject* call_args[] = {obj, max_version};
  PyObject* capsule = PyObject_VectorcallMethod(str_dlpack, call_args, 1, max_version_kw);
  if (capsule == nullptr && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    capsule = PyObject_VectorcallMethod(str_dlpack, call_args, 1, nullptr);
  }
  if (capsule == nullptr) return nullptr;
  TVMFFIObject* out = AdoptCapsule(capsule);
  Py_DECREF(capsule);
  return out;
}

}  // namespace

bool IsDLPackProducer(PyObject* obj) {
  // A type lookup through CPython's attribute cache: no exception is raised and cleared.
  return _PyType_Lookup(Py_TYPE(obj), str_dlpack) != nullptr;
}

TVMFFIObject* TensorFromDLPackProducer(PyObject* obj, int* is_producer) {
  if (PyObject_TypeCheck(obj, TensorType)) {
    *is_producer = 1;
    TVMFFIObject* h = WrappedHandle(obj);
    if (h == nullptr) {
      SetError(PyExc_ValueError, "Tensor is not initialized");
      return nullptr;
    }
    tvm::ffi::Object::IncRefHeader(h);
    return h;
  }
  if (!IsDLPackProducer(obj)) {
    *is_producer = 0;
    SetError(PyExc_TypeError, "from_dlpack: expected an object with __dlpack__, got %s",
             Py_TYPE(obj)->tp_name);
    return nullptr;
  }
  *is_producer = 1;
  return AdoptFromProducer(obj);
}

bool RefusesTorchExport(PyObject* obj, TVMFFIObject* tensor) {
  // Only types with is_neg (torch.Tensor) are asked, each state for the dtypes it occurs with.
  if (_PyType_Lookup(Py_TYPE(obj), str_is_neg) == nullptr) return false;
  uint8_t code = TVMFFITensorGetDLTensorPtr(tensor)->dtype.code;
  bool complex = code == kDLComplex;
  bool floating = complex || code == kDLFloat || code == kDLBfloat;
  struct Check {
    bool applies;
    PyObject* name;
    bool call;
    const char* message;
  };
  const Check checks[] = {
      {floating, str_requires_grad, false, "requires grad; pass tensor.detach()"},
      {complex, str_is_conj, true, "has its conjugate bit set; pass tensor.resolve_conj()"},
      {true, str_is_neg, true, "has its negative bit set; pass tensor.resolve_neg()"},
  };
  for (const Check& check : checks) {
    if (!check.applies) continue;
    int truth = TruthOf(obj, check.name, check.call);
    if (truth < 0) return true;
    if (truth > 0) {
      SetError(PyExc_BufferError, "from_dlpack: the %s tensor %s", Py_TYPE(obj)->tp_name,
               check.message);
      return true;
    }
  }
  return false;
}

int InitTensorType(PyObject* module) {
  if (InitNames() != 0) return -1;
  TensorType = NewType(module, &tensor_spec, ObjectType);
  return TensorType != nullptr ? 0 : -1;
}

}  // namespace tvm_ffi_py
