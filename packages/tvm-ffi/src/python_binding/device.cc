// The Device type: (device_type, device_id) as a small immutable Python value.
#include "core.h"

namespace tvm_ffi_py {
namespace {

struct DeviceName {
  int code;
  const char* name;
};
const DeviceName kDeviceNames[] = {{kDLCPU, "cpu"},
                                   {kDLCUDA, "cuda"},
                                   {kDLCUDAHost, "cuda_host"},
                                   {kDLOpenCL, "opencl"},
                                   {kDLVulkan, "vulkan"},
                                   {kDLMetal, "metal"},
                                   {kDLVPI, "vpi"},
                                   {kDLROCM, "rocm"},
                                   {kDLROCMHost, "rocm_host"},
                                   {kDLExtDev, "ext_dev"},
                                   {kDLCUDAManaged, "cuda_managed"},
                                   {kDLOneAPI, "oneapi"},
                                   {kDLWebGPU, "webgpu"},
                                   {kDLHexagon, "hexagon"},
                                   {kDLMAIA, "maia"}};

const char* NameOf(int code) {
  for (const auto& d : kDeviceNames) {
    if (d.code == code) return d.name;
  }
  return nullptr;
}

DLDevice& Dev(PyObject* self) { return reinterpret_cast<PyFFIDevice*>(self)->device; }

/*! Reads an int argument of Device(...) into an int32; -1 with a TypeError/OverflowError naming it.
 */
int ArgToInt(PyObject* value, const char* name, int* out) {
  if (!PyIndex_Check(value)) {
    SetError(PyExc_TypeError, "Device: argument `%s` must be an int, got %s", name,
             Py_TYPE(value)->tp_name);
    return -1;
  }
  int overflow = 0;
  PyObject* as_int = PyNumber_Index(value);
  long v = as_int ? PyLong_AsLongAndOverflow(as_int, &overflow) : -1;
  Py_XDECREF(as_int);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) {
    SetError(PyExc_OverflowError, "Device: argument `%s` does not fit in int32: %R", name, value);
    return -1;
  }
  *out = static_cast<int>(v);
  return 0;
}

/*! Device(device_type: int | str, device_id: int = 0) */
PyObject* Device_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"device_type", "device_id", nullptr};
  PyObject *type_arg = nullptr, *id_arg = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:Device", const_cast<char**>(kwlist),
                                   &type_arg, &id_arg)) {
    return nullptr;
  }
  if (PyUnicode_Check(type_arg) && type == DeviceType) {
    // Device("cuda", 1) / Device("cuda:1"), as upstream: parsed by tvm_ffi.device(), the one
    // place that knows the device names.
    PyObject* module = PyImport_ImportModule("tvm_ffi.device");
    if (module == nullptr) return nullptr;
    PyObject* parse = PyObject_GetAttrString(module, "device");
    Py_DECREF(module);
    if (parse == nullptr) return nullptr;
    PyObject* result = id_arg ? PyObject_CallFunctionObjArgs(parse, type_arg, id_arg, nullptr)
                              : PyObject_CallOneArg(parse, type_arg);
    Py_DECREF(parse);
    return result;
  }
  int device_type = 0, device_id = 0;
  if (ArgToInt(type_arg, "device_type", &device_type) != 0) return nullptr;
  if (id_arg && ArgToInt(id_arg, "device_id", &device_id) != 0) return nullptr;
  if (device_type <= 0 || device_id < 0) {
    SetError(PyExc_ValueError,
             "Device: expected a positive device_type and a non-negative device_id, got (%d, %d)",
             device_type, device_id);
    return nullptr;
  }
  PyObject* self = type->tp_alloc(type, 0);
  if (self) Dev(self) = DLDevice{static_cast<DLDeviceType>(device_type), device_id};
  return self;
}

PyObject* Device_repr(PyObject* self) {
  const char* name = NameOf(Dev(self).device_type);
  if (name) return PyUnicode_FromFormat("device(type='%s', index=%d)", name, Dev(self).device_id);
  return PyUnicode_FromFormat("device(type=%d, index=%d)", Dev(self).device_type,
                              Dev(self).device_id);
}

PyObject* Device_str(PyObject* self) {
  const char* name = NameOf(Dev(self).device_type);
  if (name) return PyUnicode_FromFormat("%s:%d", name, Dev(self).device_id);
  return PyUnicode_FromFormat("%d:%d", Dev(self).device_type, Dev(self).device_id);
}

PyObject* Device_richcompare(PyObject* self, PyObject* other, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(other, DeviceType))
    Py_RETURN_NOTIMPLEMENTED;
  bool same = Dev(self).device_type == Dev(other).device_type &&
              Dev(self).device_id == Dev(other).device_id;
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

Py_hash_t Device_hash(PyObject* self) {
  Py_hash_t h = (static_cast<Py_hash_t>(Dev(self).device_type) << 20) ^ Dev(self).device_id;
  return h == -1 ? -2 : h;
}

PyObject* Device_type_code(PyObject* self, void*) { return PyLong_FromLong(Dev(self).device_type); }
PyObject* Device_id(PyObject* self, void*) { return PyLong_FromLong(Dev(self).device_id); }
PyObject* Device_type_name(PyObject* self, void*) {
  const char* name = NameOf(Dev(self).device_type);
  if (name) return PyUnicode_FromString(name);
  return PyUnicode_FromFormat("%d", Dev(self).device_type);
}

PyObject* Device_dlpack_device(PyObject* self, PyObject*) {
  return Py_BuildValue("(ii)", static_cast<int>(Dev(self).device_type), Dev(self).device_id);
}

PyObject* Device_reduce(PyObject* self, PyObject*) {
  return Py_BuildValue("(O(ii))", reinterpret_cast<PyObject*>(Py_TYPE(self)),
                       static_cast<int>(Dev(self).device_type), Dev(self).device_id);
}

PyGetSetDef device_getset[] = {
    {"device_type", Device_type_code, nullptr, "DLPack device type code", nullptr},
    {"device_id", Device_id, nullptr, "device ordinal", nullptr},
    {"index", Device_id, nullptr, "device ordinal", nullptr},
    {"type", Device_type_name, nullptr, "device kind name, e.g. 'cpu'", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyObject* Device_dlpack_type(PyObject* self, PyObject*) {
  return PyLong_FromLong(static_cast<long>(Dev(self).device_type));
}

PyMethodDef device_methods[] = {
    {"__dlpack_device__", Device_dlpack_device, METH_NOARGS, "(device_type, device_id)"},
    {"dlpack_device_type", Device_dlpack_type, METH_NOARGS,
     "The DLPack device type code (compare with tvm_ffi.DLDeviceType)"},
    {"__reduce__", Device_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

/*! Instances hold a reference to their (heap) type, Python subclasses' instances too. */
void Device_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyType_Slot device_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(Device_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(Device_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(Device_repr)},
    {Py_tp_str, reinterpret_cast<void*>(Device_str)},
    {Py_tp_richcompare, reinterpret_cast<void*>(Device_richcompare)},
    {Py_tp_hash, reinterpret_cast<void*>(Device_hash)},
    {Py_tp_getset, device_getset},
    {Py_tp_methods, device_methods},
    {Py_tp_doc, const_cast<char*>("A device: Device(device_type, device_id). Build one with "
                                  "tvm_ffi.device('cuda:0').")},
    {0, nullptr}};

PyType_Spec device_spec = {"tvm_ffi.core.Device", sizeof(PyFFIDevice), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, device_slots};

/*! {name: code} of the device types with a name; NULL with a Python error. */
PyObject* DeviceTypeNames() {
  PyObject* out = PyDict_New();
  if (out == nullptr) return nullptr;
  for (const auto& d : kDeviceNames) {
    PyObject* code = PyLong_FromLong(d.code);
    if (code == nullptr || PyDict_SetItemString(out, d.name, code) != 0) {
      Py_XDECREF(code);
      Py_DECREF(out);
      return nullptr;
    }
    Py_DECREF(code);
  }
  return out;
}

}  // namespace

PyTypeObject* DeviceType = nullptr;

int InitDeviceType(PyObject* module) {
  DeviceType = NewType(module, &device_spec, nullptr);
  if (DeviceType == nullptr) return -1;
  PyObject* names = DeviceTypeNames();
  if (names == nullptr) return -1;
  if (PyModule_AddObject(module, "DEVICE_TYPE_CODES", names) < 0) {
    Py_DECREF(names);
    return -1;
  }
  return 0;
}

}  // namespace tvm_ffi_py
