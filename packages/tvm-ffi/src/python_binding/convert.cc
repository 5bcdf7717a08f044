// Conversions between Python values and Any: arguments (borrowed views) and owned values.
#include <cstring>
#include <new>

#include "core.h"

namespace tvm_ffi_py {
namespace {

using tvm::ffi::details::InitNone;

void SetSmall(TVMFFIAny* out, int32_t tindex, const char* data, Py_ssize_t size) {
  out->type_index = tindex;
  out->small_str_len = static_cast<uint32_t>(size);
  out->v_int64 = 0;
  std::memcpy(out->v_bytes, data, size);
}

int IntToAny(PyObject* obj, TVMFFIAny* out) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow != 0) {
    SetError(PyExc_OverflowError, "int %R does not fit in the FFI's int64", obj);
    return -1;
  }
  if (v == -1 && PyErr_Occurred()) return -1;
  out->type_index = kTVMFFIInt;
  out->zero_padding = 0;
  out->v_int64 = v;
  return 0;
}

/*! Values whose conversion calls no Python code (exact int, float, str, None, bool). */
inline bool RunsNoPythonCode(PyObject* obj) {
  PyTypeObject* tp = Py_TYPE(obj);
  return tp == &PyLong_Type || tp == &PyFloat_Type || tp == &PyUnicode_Type || obj == Py_None ||
         tp == &PyBool_Type;
}

/*!
 * A new owned Array from a list or tuple. Converting an element runs Python code (__index__,
 * __dlpack__, ...) that may shrink or grow the list: each element is held while it converts
 * and a change of size is refused, as dict iteration does.
 */
TVMFFIObject* SequenceToArray(PyObject* seq) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  std::vector<Any> values(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    // The common cases: nothing can change the list meanwhile.
    if (Py_TYPE(item) == &PyLong_Type) {
      if (IntToAny(item, values[i].raw_mutable()) != 0) return nullptr;
      continue;
    }
    if (RunsNoPythonCode(item)) {
      if (PyToAnyOwned(item, values[i].raw_mutable()) != 0) return nullptr;
      continue;
    }
    Py_INCREF(item);
    int ret = PyToAnyOwned(item, values[i].raw_mutable());
    Py_DECREF(item);
    if (ret != 0) return nullptr;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
      SetError(PyExc_RuntimeError, "list changed size during conversion to an FFI Array");
      return nullptr;
    }
    items = PySequence_Fast_ITEMS(seq);  // Python code ran: the list may have moved its items
  }
  auto obj = tvm::ffi::make_object<tvm::ffi::ArrayObj>(std::move(values));
  return tvm::ffi::details::ObjectUnsafe::MoveToHeader(std::move(obj));
}

/*! A new owned Map from a dict, keeping its order; keys and values are held as for lists. */
TVMFFIObject* DictToMap(PyObject* dict) {
  auto obj = tvm::ffi::make_object<tvm::ffi::MapObj>();
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  Py_ssize_t n = PyDict_GET_SIZE(dict);
  obj->Reserve(n);
  while (PyDict_Next(dict, &pos, &key, &value)) {
    Any k, v;
    bool held = !RunsNoPythonCode(key) || !RunsNoPythonCode(value);
    if (held) {
      Py_INCREF(key);
      Py_INCREF(value);
    }
    int ret = PyToAnyOwned(key, k.raw_mutable());
    if (ret == 0) ret = PyToAnyOwned(value, v.raw_mutable());
    if (held) {
      Py_DECREF(key);
      Py_DECREF(value);
    }
    if (ret != 0) return nullptr;
    if (held && PyDict_GET_SIZE(dict) != n) {
      SetError(PyExc_RuntimeError, "dictionary changed size during conversion to an FFI Map");
      return nullptr;
    }
    obj->Set(std::move(k), std::move(v));
  }
  return tvm::ffi::details::ObjectUnsafe::MoveToHeader(std::move(obj));
}

/*! The Array or Map of a list, tuple or dict; NULL with a Python error (MemoryError when out of
 * memory). */
TVMFFIObject* ContainerToObject(PyObject* obj) {
  // Containers recurse: deep or self-referencing ones end in RecursionError, not a crash.
  if (Py_EnterRecursiveCall(" while converting a container to an FFI value")) return nullptr;
  TVMFFIObject* made = nullptr;
  if (!CStackNearlyFull(" while converting a container to an FFI value")) {
    try {
      made = PyDict_Check(obj) ? DictToMap(obj) : SequenceToArray(obj);
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
    }
  }
  Py_LeaveRecursiveCall();
  return made;
}

/*! NumPy's bool scalar has no __index__ but does have __float__: keep it a bool. */
bool IsNumpyBool(PyTypeObject* tp) {
  return std::strcmp(tp->tp_name, "numpy.bool") == 0 ||
         std::strcmp(tp->tp_name, "numpy.bool_") == 0;
}

/*! Complex numbers (NumPy's too) have __float__ that drops the imaginary part: keep them whole. */
bool IsComplexLike(PyTypeObject* tp) {
  static PyObject* str_complex = PyUnicode_InternFromString("__complex__");
  // complex itself has __complex__ only from 3.11 on; np.complex128 subclasses it.
  return PyType_IsSubtype(tp, &PyComplex_Type) || _PyType_Lookup(tp, str_complex) != nullptr;
}

void SetObject(TVMFFIAny* out, TVMFFIObject* handle) {
  out->type_index = handle->type_index;
  out->zero_padding = 0;
  out->v_obj = handle;
}

int SetDevice(TVMFFIAny* out, PyObject* device) {
  out->type_index = kTVMFFIDevice;
  out->v_int64 = 0;
  out->v_device = reinterpret_cast<PyFFIDevice*>(device)->device;
  return 0;
}

int ParseDType(PyObject* obj, TVMFFIAny* out) {
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(obj, &size);
  if (data == nullptr) return -1;
  TVMFFIByteArray bytes{data, static_cast<size_t>(size)};
  out->type_index = kTVMFFIDataType;
  out->v_int64 = 0;
  if (TVMFFIDataTypeFromString(&bytes, &out->v_dtype) != 0) {
    RaiseFFIError();
    return -1;
  }
  return 0;
}

PyObject* object_convertible_class = nullptr;  // tvm_ffi.core.ObjectConvertible, set at import

/*! 1 when obj is an ObjectConvertible, 0 when not, -1 with a Python error. */
int IsObjectConvertible(PyObject* obj) {
  if (object_convertible_class == nullptr) return 0;
  return PyObject_IsInstance(obj, object_convertible_class);
}

/*! The owned handle of obj.asobject(); NULL with TypeError when that is not an initialized Object.
 */
TVMFFIObject* ObjectFromConvertible(PyObject* obj) {
  PyObject* as = PyObject_CallMethod(obj, "asobject", nullptr);
  if (as == nullptr) return nullptr;
  TVMFFIObject* handle = PyObject_TypeCheck(as, ObjectType) ? WrappedHandle(as) : nullptr;
  if (handle == nullptr) {
    SetError(PyExc_TypeError, "%s.asobject() must return an initialized tvm_ffi.Object, got %s",
             Py_TYPE(obj)->tp_name, Py_TYPE(as)->tp_name);
    Py_DECREF(as);
    return nullptr;
  }
  tvm::ffi::Object::IncRefHeader(handle);
  Py_DECREF(as);
  return handle;
}

int Convert(PyObject* obj, TVMFFIAny* out, CallTemps* temps);

/*! A str or bytes subclass converts as the plain value it holds: a new owned copy. */
int ConvertPlainCopy(PyObject* plain, TVMFFIAny* out, CallTemps* temps) {
  if (plain == nullptr) return -1;
  int ret = Convert(plain, out, nullptr);
  Py_DECREF(plain);
  if (ret == 0 && temps && tvm::ffi::details::IsObjectIndex(out->type_index))
    temps->Own(out->v_obj);
  return ret;
}

/*!
 * The shared conversion. With temps (argument mode) strings and objects are borrowed and
 * any object made here is handed to temps; without temps (owned mode) the result owns.
 */
int Convert(PyObject* obj, TVMFFIAny* out, CallTemps* temps) {
  PyTypeObject* tp = Py_TYPE(obj);
  out->zero_padding = 0;
  if (tp == &PyLong_Type) return IntToAny(obj, out);
  if (obj == Py_None) {  // early: what every callback returning nothing gives back
    InitNone(out);
    return 0;
  }
  if (tp == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AS_DOUBLE(obj);
    return 0;
  }
  if (tp == &PyUnicode_Type) {
    Py_ssize_t size;
    const char* data = PyUnicode_AsUTF8AndSize(obj, &size);
    if (data == nullptr) return -1;
    if (size <= 7) {
      SetSmall(out, kTVMFFISmallStr, data, size);
      return 0;
    }
    // A str's UTF-8 buffer lives as long as the str: pass it without copying when no NUL hides in
    // it.
    if (temps && std::memchr(data, 0, size) == nullptr) {
      out->type_index = kTVMFFIRawStr;
      out->v_c_str = data;
      return 0;
    }
    TVMFFIByteArray bytes{data, static_cast<size_t>(size)};
    if (TVMFFIStringFromByteArray(&bytes, out) != 0) {
      RaiseFFIError();
      return -1;
    }
    if (temps) temps->Own(out->v_obj);
    return 0;
  }
  if (tp == FunctionType || PyObject_TypeCheck(obj, ObjectType)) {
    TVMFFIObject* handle = WrappedHandle(obj);
    if (handle == nullptr) {
      SetError(PyExc_ValueError, "%s object is not initialized (its handle is None)", tp->tp_name);
      return -1;
    }
    SetObject(out, handle);
    if (!temps) tvm::ffi::Object::IncRefHeader(handle);
    return 0;
  }
  if (tp == &PyBool_Type) {
    out->type_index = kTVMFFIBool;
    out->v_int64 = obj == Py_True;
    return 0;
  }
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type) {
    char* data = tp == &PyBytes_Type ? PyBytes_AS_STRING(obj) : PyByteArray_AS_STRING(obj);
    Py_ssize_t size = tp == &PyBytes_Type ? PyBytes_GET_SIZE(obj) : PyByteArray_GET_SIZE(obj);
    if (size <= 7) {
      SetSmall(out, kTVMFFISmallBytes, data, size);
      return 0;
    }
    if (temps && tp == &PyBytes_Type) {
      TVMFFIByteArray* arr = temps->NewByteArray();
      *arr = {data, static_cast<size_t>(size)};
      out->type_index = kTVMFFIByteArrayPtr;
      out->v_ptr = arr;
      return 0;
    }
    TVMFFIByteArray bytes{data, static_cast<size_t>(size)};
    if (TVMFFIBytesFromByteArray(&bytes, out) != 0) {
      RaiseFFIError();
      return -1;
    }
    if (temps) temps->Own(out->v_obj);
    return 0;
  }
  if (tp == DeviceType) {
    return SetDevice(out, obj);
  }
  TVMFFIObject* made = nullptr;
  if (tp == &PyFunction_Type || tp == &PyCFunction_Type || tp == &PyMethod_Type) {
    // A callback (a lambda, a def, a bound method): none of the checks below could match it.
    made = FunctionFromPyCallable(obj);
    if (made == nullptr) return -1;
  } else if (PyList_Check(obj) || PyTuple_Check(obj) || PyDict_Check(obj)) {
    made = ContainerToObject(obj);
    if (made == nullptr) return -1;
  } else if (PyUnicode_Check(obj)) {
    // str subclasses: a dtype converts to a DataType, any other str stays a str.
    PyObject* dtype_cls = ClassForTypeIndex(kTVMFFIDataType);
    if (PyObject_TypeCheck(obj, reinterpret_cast<PyTypeObject*>(dtype_cls)))
      return ParseDType(obj, out);
    return ConvertPlainCopy(PyUnicode_FromObject(obj), out, temps);
  } else if (PyBytes_Check(obj)) {
    // bytes subclasses (np.bytes_) are bytes.
    return ConvertPlainCopy(
        PyBytes_FromStringAndSize(PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj)), out, temps);
  } else if (PyLong_Check(obj)) {
    return IntToAny(obj, out);
  } else if (PyObject_TypeCheck(obj, DeviceType)) {
    return SetDevice(out, obj);
  } else if (PyFloat_Check(obj)) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AsDouble(obj);
    return 0;
  } else if (PyCallable_Check(obj)) {
    made = FunctionFromPyCallable(obj);
    if (made == nullptr) return -1;
  } else if (IsDLPackProducer(obj)) {
    int is_producer = 0;
    made = TensorFromDLPackProducer(obj, &is_producer);
    if (made == nullptr) return -1;
  } else if (IsNumpyBool(tp)) {
    int truth = PyObject_IsTrue(obj);
    if (truth < 0) return -1;
    out->type_index = kTVMFFIBool;
    out->v_int64 = truth;
    return 0;
  } else if (PyIndex_Check(obj)) {
    // NumPy integer scalars and other exact integers: __index__ gives the value.
    PyObject* as_int = PyNumber_Index(obj);
    if (as_int == nullptr) return -1;
    int ret = IntToAny(as_int, out);
    Py_DECREF(as_int);
    return ret;
  } else if (tp->tp_as_number && tp->tp_as_number->nb_float && !IsComplexLike(tp)) {
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIFloat;
    out->v_float64 = v;
    return 0;
  } else {
    int convertible = IsObjectConvertible(obj);
    if (convertible < 0) return -1;
    // An ObjectConvertible travels as the Object its asobject() gives; anything else as an
    // opaque reference to the Python object itself.
    made = convertible ? ObjectFromConvertible(obj) : NewOpaquePyObject(obj);
    if (made == nullptr) return -1;
  }
  SetObject(out, made);
  if (temps) temps->Own(made);
  return 0;
}

}  // namespace

void SetObjectConvertibleClass(PyObject* cls) {
  Py_XINCREF(cls);
  Py_XSETREF(object_convertible_class, cls);
}

int PyToAnyArg(PyObject* obj, TVMFFIAny* out, CallTemps* temps) { return Convert(obj, out, temps); }

int PyToAnyOwned(PyObject* obj, TVMFFIAny* out) { return Convert(obj, out, nullptr); }

const char* PyTypeName(PyObject* obj) { return Py_TYPE(obj)->tp_name; }

PyObject* WrapObject(TVMFFIObject* handle) {
  PyObject* cls = ClassForTypeIndex(handle->type_index);
  PyTypeObject* type = reinterpret_cast<PyTypeObject*>(cls);
  if (type == FunctionType) return NewFunction(handle);
  PyObject* self = type->tp_alloc(type, 0);
  if (self == nullptr) {
    tvm::ffi::Object::DecRefHeader(handle);
    return nullptr;
  }
  reinterpret_cast<PyFFIObject*>(self)->handle = handle;
  return self;
}

PyObject* AnyToPyOwned(TVMFFIAny* value) {
  switch (value->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(value->v_int64);
    case kTVMFFIBool:
      return PyBool_FromLong(value->v_int64 != 0);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(value->v_float64);
    case kTVMFFISmallStr:
      return PyUnicode_DecodeUTF8(value->v_bytes, value->small_str_len, "surrogateescape");
    case kTVMFFISmallBytes:
      return PyBytes_FromStringAndSize(value->v_bytes, value->small_str_len);
    case kTVMFFIRawStr:
      return PyUnicode_DecodeUTF8(value->v_c_str, std::strlen(value->v_c_str), "surrogateescape");
    case kTVMFFIByteArrayPtr: {
      auto* arr = static_cast<const TVMFFIByteArray*>(value->v_ptr);
      return PyBytes_FromStringAndSize(arr->data, arr->size);
    }
    case kTVMFFIOpaquePtr:
      return PyLong_FromVoidPtr(value->v_ptr);
    case kTVMFFIDataType:
      return DataTypeToPy(value->v_dtype);
    case kTVMFFIDevice: {
      auto* dev = PyObject_New(PyFFIDevice, DeviceType);
      if (dev) dev->device = value->v_device;
      return reinterpret_cast<PyObject*>(dev);
    }
    case kTVMFFIDLTensorPtr:
      return PyLong_FromVoidPtr(value->v_ptr);
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      const TVMFFIByteArray* cell = TVMFFIStringGetCell(value->v_obj);
      PyObject* out = value->type_index == kTVMFFIStr
                          ? PyUnicode_DecodeUTF8(cell->data, cell->size, "surrogateescape")
                          : PyBytes_FromStringAndSize(cell->data, cell->size);
      tvm::ffi::Object::DecRefHeader(value->v_obj);
      InitNone(value);
      return out;
    }
    case kTVMFFIOpaquePyObject: {
      PyObject* out = OpaquePyObjectGet(value->v_obj);
      Py_INCREF(out);
      tvm::ffi::Object::DecRefHeader(value->v_obj);
      InitNone(value);
      return out;
    }
    default:
      break;
  }
  if (value->type_index >= kTVMFFIStaticObjectBegin) {
    TVMFFIObject* handle = value->v_obj;
    InitNone(value);
    return WrapObject(handle);
  }
  SetError(PyExc_TypeError, "cannot convert an FFI value of type index %d to Python",
           value->type_index);
  return nullptr;
}

PyObject* AnyViewToPy(const TVMFFIAny* value) {
  TVMFFIAny copy = *value;
  if (tvm::ffi::details::IsObjectIndex(copy.type_index)) tvm::ffi::Object::IncRefHeader(copy.v_obj);
  return AnyToPyOwned(&copy);
}

}  // namespace tvm_ffi_py
