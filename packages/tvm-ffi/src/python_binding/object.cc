// The Object base type, the table of Python classes by type index, and reflected fields.
#include <unordered_map>
#include <vector>

#include "core.h"

namespace tvm_ffi_py {
namespace {

struct ClassSlot {
  PyObject* cls = nullptr;  // strong reference
  bool inherited = false;   // filled from an ancestor; cleared when classes change
};
std::vector<ClassSlot> class_table;

PyObject* dtype_class = nullptr;
std::unordered_map<uint32_t, PyObject*> dtype_cache;

void ClearInherited() {
  for (ClassSlot& slot : class_table) {
    if (slot.inherited) {
      Py_CLEAR(slot.cls);
      slot.inherited = false;
    }
  }
}

ClassSlot& Slot(int32_t index) {
  if (index >= static_cast<int32_t>(class_table.size())) class_table.resize(index + 1);
  return class_table[index];
}

// ---------------- Object type ----------------
PyObject* Object_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyObject* self = type->tp_alloc(type, 0);
  if (self) reinterpret_cast<PyFFIObject*>(self)->handle = nullptr;
  return self;
}

}  // namespace

/*! Drops the handle: the FFI object, and the Python objects it holds, may go with it. */
int ObjectClear(PyObject* self) {
  TVMFFIObject* handle = WrappedHandle(self);
  reinterpret_cast<PyFFIObject*>(self)->handle = nullptr;
  if (handle) tvm::ffi::Object::DecRefHeader(handle);
  return 0;
}

void ObjectDealloc(PyObject* self) {
  // A heap type's instance holds a reference to its type (subclasses made by class statements
  // leave dropping it to their heap base, this function).
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  ObjectClear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

/*!
 * A Python callable held by a Function, or a Python object held in an Array or Map, can refer
 * back to the wrapper: the GC must see through the handle to collect such cycles.
 */
int ObjectTraverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));  // instances of heap types hold their type
  return TraverseHandle(WrappedHandle(self), visit, arg);
}

bool CheckHandleFits(PyTypeObject* type, int32_t type_index, const char* func) {
  // Function and Tensor read their handle's layout directly: a foreign handle would crash them.
  int32_t needed = PyType_IsSubtype(type, FunctionType) ? kTVMFFIFunction
                   : PyType_IsSubtype(type, TensorType) ? kTVMFFITensor
                                                        : kTVMFFIObject;
  if (needed == kTVMFFIObject || tvm::ffi::details::IsSubtype(type_index, needed)) return true;
  const TVMFFITypeInfo* got = TVMFFIGetTypeInfo(type_index);
  SetError(PyExc_TypeError, "%s: a %s cannot hold an object of type %s", func, type->tp_name,
           got ? got->type_key.data : "unknown");
  return false;
}

namespace {

PyObject* Object_richcompare(PyObject* self, PyObject* other, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(other, ObjectType)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  bool same = WrappedHandle(self) == WrappedHandle(other);
  if (op == Py_NE) same = !same;
  return PyBool_FromLong(same);
}

Py_hash_t Object_hash(PyObject* self) {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_HashPointer(WrappedHandle(self));  // public from 3.13 on; never returns -1
#else
  Py_hash_t h = _Py_HashPointer(WrappedHandle(self));
  return h == -1 ? -2 : h;
#endif
}

PyObject* repr_hook = nullptr;  // tvm_ffi's Python repr of reflected objects, once set

PyObject* Object_repr(PyObject* self) {
  TVMFFIObject* h = WrappedHandle(self);
  if (h == nullptr) return PyUnicode_FromFormat("<%s (uninitialized)>", Py_TYPE(self)->tp_name);
  if (repr_hook != nullptr) return PyObject_CallOneArg(repr_hook, self);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(h->type_index);
  PyObject* key = PyUnicode_FromStringAndSize(info->type_key.data, info->type_key.size);
  if (key == nullptr) return nullptr;
  PyObject* out = PyUnicode_FromFormat("<%U object at %p>", key, h);
  Py_DECREF(key);
  return out;
}

PyObject* Object_same_as(PyObject* self, PyObject* other) {
  if (!PyObject_TypeCheck(other, ObjectType)) Py_RETURN_FALSE;
  return PyBool_FromLong(WrappedHandle(self) == WrappedHandle(other));
}

/*! self.__init_handle_by_constructor__(f, *args): adopt the object that f returns. */
PyObject* Object_init_handle_by_constructor(PyObject* self, PyObject* const* args,
                                            Py_ssize_t nargs) {
  if (nargs < 1) {
    SetError(PyExc_TypeError, "__init_handle_by_constructor__: expects a constructor function");
    return nullptr;
  }
  PyObject* result = PyObject_Vectorcall(args[0], args + 1, nargs - 1, nullptr);
  if (result == nullptr) return nullptr;
  if (!PyObject_TypeCheck(result, ObjectType) || WrappedHandle(result) == nullptr) {
    SetError(PyExc_TypeError,
             "__init_handle_by_constructor__: constructor returned %s, expected an Object",
             Py_TYPE(result)->tp_name);
    Py_DECREF(result);
    return nullptr;
  }
  if (!CheckHandleFits(Py_TYPE(self), WrappedHandle(result)->type_index,
                       "__init_handle_by_constructor__")) {
    Py_DECREF(result);
    return nullptr;
  }
  TVMFFIObject* old = WrappedHandle(self);
  reinterpret_cast<PyFFIObject*>(self)->handle = WrappedHandle(result);
  reinterpret_cast<PyFFIObject*>(result)->handle = nullptr;
  Py_DECREF(result);
  if (old) tvm::ffi::Object::DecRefHeader(old);
  Py_RETURN_NONE;
}

/*! self.__move_handle_from__(other): take other's reference, leaving other empty. */
PyObject* Object_move_handle_from(PyObject* self, PyObject* other) {
  if (!PyObject_TypeCheck(other, ObjectType)) {
    SetError(PyExc_TypeError, "__move_handle_from__: expects an Object");
    return nullptr;
  }
  if (other == self) Py_RETURN_NONE;  // moving onto itself must not drop the reference
  TVMFFIObject* moved = WrappedHandle(other);
  if (moved && !CheckHandleFits(Py_TYPE(self), moved->type_index, "__move_handle_from__"))
    return nullptr;
  TVMFFIObject* old = WrappedHandle(self);
  reinterpret_cast<PyFFIObject*>(self)->handle = WrappedHandle(other);
  reinterpret_cast<PyFFIObject*>(other)->handle = nullptr;
  if (old) tvm::ffi::Object::DecRefHeader(old);
  Py_RETURN_NONE;
}

PyObject* Object_get_type_index(PyObject* self, void*) {
  TVMFFIObject* h = WrappedHandle(self);
  return PyLong_FromLong(h ? h->type_index : -1);
}

PyObject* Object_get_type_key(PyObject* self, void*) {
  TVMFFIObject* h = WrappedHandle(self);
  if (h == nullptr) Py_RETURN_NONE;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(h->type_index);
  return PyUnicode_FromStringAndSize(info->type_key.data, info->type_key.size);
}

PyObject* Object_get_handle(PyObject* self, void*) {
  return PyLong_FromVoidPtr(WrappedHandle(self));
}

/*! Python-level behaviours of every Object (copy, deepcopy, pickling), set by tvm_ffi at import. */
PyObject* copy_hook = nullptr;
PyObject* deepcopy_hook = nullptr;
PyObject* reduce_hook = nullptr;

PyObject* CallHook(PyObject* hook, PyObject* self, PyObject* extra, const char* name) {
  if (hook == nullptr) {
    SetError(PyExc_TypeError, "%s: tvm_ffi did not install its object hooks", name);
    return nullptr;
  }
  return extra ? PyObject_CallFunctionObjArgs(hook, self, extra, nullptr)
               : PyObject_CallOneArg(hook, self);
}

PyObject* Object_copy(PyObject* self, PyObject*) {
  return CallHook(copy_hook, self, nullptr, "__copy__");
}
PyObject* Object_deepcopy(PyObject* self, PyObject* memo) {
  return CallHook(deepcopy_hook, self, memo, "__deepcopy__");
}
PyObject* Object_reduce(PyObject* self, PyObject*) {
  return CallHook(reduce_hook, self, nullptr, "__reduce__");
}

/*! obj._move(): tvm_ffi.core.ObjectRValueRef(obj), which hands obj's reference to the callee. */
PyObject* Object_move(PyObject* self, PyObject*) {
  PyObject* core = PyImport_ImportModule("tvm_ffi.core");
  if (core == nullptr) return nullptr;
  PyObject* cls = PyObject_GetAttrString(core, "ObjectRValueRef");
  Py_DECREF(core);
  if (cls == nullptr) return nullptr;
  PyObject* ref = PyObject_CallOneArg(cls, self);
  Py_DECREF(cls);
  return ref;
}

PyMethodDef object_methods[] = {
    {"_move", Object_move, METH_NOARGS,
     "_move($self, /)\n--\n\nAn ObjectRValueRef: passing it to a Function moves this "
     "object's reference into the call (the object is left empty)."},
    {"__copy__", Object_copy, METH_NOARGS,
     "A shallow copy: a new object with the same field values."},
    {"__deepcopy__", Object_deepcopy, METH_O,
     "A deep copy: fields, arrays and maps copied recursively."},
    {"__reduce__", Object_reduce, METH_NOARGS,
     "Pickles through tvm_ffi.serialization's JSON graph."},
    // The text signatures name the argument `other` on every Python (3.13 alone would
    // otherwise report it as `object`), so the stubs and the runtime agree everywhere.
    {"same_as", reinterpret_cast<PyCFunction>(Object_same_as), METH_O,
     "same_as($self, other, /)\n--\n\nTrue when both refer to the same FFI object."},
    {"__init_handle_by_constructor__",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Object_init_handle_by_constructor)),
     METH_FASTCALL, "Adopts the object returned by calling a constructor Function."},
    {"__move_handle_from__", reinterpret_cast<PyCFunction>(Object_move_handle_from), METH_O,
     "__move_handle_from__($self, other, /)\n--\n\nTakes the reference held by another Object."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef object_getset[] = {
    {"__ffi_type_index__", Object_get_type_index, nullptr, "runtime type index", nullptr},
    {"__ffi_type_key__", Object_get_type_key, nullptr, "registered type key", nullptr},
    {"__ffi_handle__", Object_get_handle, nullptr, "address of the object header", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// ---------------- reflected field descriptor ----------------
struct PyFieldDescr {
  PyObject_HEAD TVMFFIFieldInfo
      info;  // a copy: the type table may grow (and move) its field array later
  PyObject* name;
  int32_t owner_index;  // the type declaring the field: only its instances have it at info.offset
};

/*! The handle of obj when it is an initialized instance of the field's type; else a TypeError. */
TVMFFIObject* FieldTarget(PyFieldDescr* d, PyObject* obj) {
  TVMFFIObject* h = PyObject_TypeCheck(obj, ObjectType) ? WrappedHandle(obj) : nullptr;
  if (h == nullptr || !tvm::ffi::details::IsSubtype(h->type_index, d->owner_index)) {
    const TVMFFITypeInfo* owner = TVMFFIGetTypeInfo(d->owner_index);
    SetError(PyExc_TypeError, "field %U: expected an initialized %s object, got %s", d->name,
             owner ? owner->type_key.data : "FFI",
             h ? TVMFFIGetTypeInfo(h->type_index)->type_key.data : Py_TYPE(obj)->tp_name);
    return nullptr;
  }
  return h;
}

PyObject* Field_get(PyObject* self, PyObject* obj, PyObject*) {
  auto* d = reinterpret_cast<PyFieldDescr*>(self);
  if (obj == nullptr || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  TVMFFIObject* h = FieldTarget(d, obj);
  if (h == nullptr) return nullptr;
  TVMFFIAny value;
  tvm::ffi::details::InitNone(&value);
  void* addr = reinterpret_cast<char*>(h) + d->info.offset;
  if (d->info.getter(addr, &value) != 0) return RaiseFFIError();
  return AnyToPyOwned(&value);
}

/*! Stores value in the field through its setter; `force` skips the read-only check. */
int FieldStore(PyFieldDescr* d, PyObject* obj, PyObject* value, bool force) {
  if (d->info.setter == nullptr || (!force && !(d->info.flags & kTVMFFIFieldFlagBitMaskWritable))) {
    SetError(PyExc_AttributeError, "field %U of %s is read-only (frozen)", d->name,
             PyTypeName(obj));
    return -1;
  }
  if (value == nullptr) {
    SetError(PyExc_AttributeError, "field %U cannot be deleted", d->name);
    return -1;
  }
  TVMFFIObject* h = FieldTarget(d, obj);
  if (h == nullptr) return -1;
  CallTemps temps;
  TVMFFIAny arg;
  if (PyToAnyArg(value, &arg, &temps) != 0) return -1;
  void* addr = reinterpret_cast<char*>(h) + d->info.offset;
  if (d->info.setter(addr, &arg) != 0) {
    RaiseFFIError();
    return -1;
  }
  return 0;
}

int Field_set(PyObject* self, PyObject* obj, PyObject* value) {
  return FieldStore(reinterpret_cast<PyFieldDescr*>(self), obj, value, false);
}

/*! descriptor.set(obj, value): the escape hatch that also writes read-only (frozen) fields. */
PyObject* Field_force_set(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    SetError(PyExc_TypeError, "FieldDescriptor.set: expects (obj, value), got %zd arguments",
             nargs);
    return nullptr;
  }
  if (FieldStore(reinterpret_cast<PyFieldDescr*>(self), args[0], args[1], true) != 0)
    return nullptr;
  Py_RETURN_NONE;
}

PyObject* Field_get_name(PyObject* self, void*) {
  PyObject* name = reinterpret_cast<PyFieldDescr*>(self)->name;
  Py_INCREF(name);
  return name;
}

PyObject* Field_get_doc(PyObject* self, void*) {
  auto* d = reinterpret_cast<PyFieldDescr*>(self);
  if (d->info.doc.size == 0) Py_RETURN_NONE;
  return PyUnicode_FromStringAndSize(d->info.doc.data, d->info.doc.size);
}

PyMethodDef field_methods[] = {
    {"set", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Field_force_set)),
     METH_FASTCALL,
     "set($self, obj, value, /)\n--\n\nWrites the field, even a read-only (frozen) one."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef field_getset[] = {{"name", Field_get_name, nullptr, "the field's name", nullptr},
                              {"__doc__", Field_get_doc, nullptr, "the field's doc", nullptr},
                              {nullptr, nullptr, nullptr, nullptr, nullptr}};

void Field_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  Py_XDECREF(reinterpret_cast<PyFieldDescr*>(self)->name);
  type->tp_free(self);
  Py_DECREF(type);
}

PyType_Slot field_slots[] = {{Py_tp_dealloc, reinterpret_cast<void*>(Field_dealloc)},
                             {Py_tp_descr_get, reinterpret_cast<void*>(Field_get)},
                             {Py_tp_descr_set, reinterpret_cast<void*>(Field_set)},
                             {Py_tp_methods, field_methods},
                             {Py_tp_getset, field_getset},
                             {0, nullptr}};

// Made only by type_info(): Python cannot instantiate it.
PyType_Spec field_spec = {"tvm_ffi.core.FieldDescriptor", sizeof(PyFieldDescr), 0,
                          Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, field_slots};
PyTypeObject* FieldDescrType = nullptr;

PyType_Slot object_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(Object_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(ObjectDealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(ObjectTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(ObjectClear)},
    {Py_tp_free, reinterpret_cast<void*>(PyObject_GC_Del)},
    {Py_tp_richcompare, reinterpret_cast<void*>(Object_richcompare)},
    {Py_tp_hash, reinterpret_cast<void*>(Object_hash)},
    {Py_tp_repr, reinterpret_cast<void*>(Object_repr)},
    {Py_tp_methods, object_methods},
    {Py_tp_getset, object_getset},
    {Py_tp_doc, const_cast<char*>(
                    "Base of every FFI object: a strong reference to a reference-counted object.")},
    {0, nullptr}};

PyType_Spec object_spec = {"tvm_ffi.core.Object", sizeof(PyFFIObject), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
                           object_slots};

}  // namespace

PyTypeObject* ObjectType = nullptr;

void RegisterClass(int32_t type_index, PyObject* cls) {
  ClearInherited();
  ClassSlot& slot = Slot(type_index);
  Py_INCREF(cls);
  Py_XSETREF(slot.cls, cls);
  slot.inherited = false;
}

PyObject* ClassForTypeIndex(int32_t type_index) {
  ClassSlot& slot = Slot(type_index);
  if (slot.cls) return slot.cls;
  // Fall back to the nearest registered ancestor and remember it.
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  PyObject* cls = reinterpret_cast<PyObject*>(ObjectType);
  if (info) {
    for (int32_t d = info->type_depth - 1; d >= 0; --d) {
      int32_t parent = info->type_ancestors[d]->type_index;
      if (parent < static_cast<int32_t>(class_table.size()) && class_table[parent].cls &&
          !class_table[parent].inherited) {
        cls = class_table[parent].cls;
        break;
      }
    }
  }
  ClassSlot& again = Slot(type_index);
  Py_INCREF(cls);
  again.cls = cls;
  again.inherited = true;
  return cls;
}

void SetObjectHooks(PyObject* repr, PyObject* copy, PyObject* deepcopy, PyObject* reduce) {
  PyObject** slots[] = {&repr_hook, &copy_hook, &deepcopy_hook, &reduce_hook};
  PyObject* values[] = {repr, copy, deepcopy, reduce};
  for (int i = 0; i < 4; ++i) {
    PyObject* hook = values[i] == Py_None ? nullptr : values[i];
    Py_XINCREF(hook);
    Py_XSETREF(*slots[i], hook);
  }
}

void SetDTypeClass(PyObject* cls) {
  Py_INCREF(cls);
  Py_XSETREF(dtype_class, cls);
  for (auto& kv : dtype_cache) Py_DECREF(kv.second);
  dtype_cache.clear();
}

PyObject* DataTypeToPy(DLDataType dtype) {
  uint32_t key = static_cast<uint32_t>(dtype.code) | (static_cast<uint32_t>(dtype.bits) << 8) |
                 (static_cast<uint32_t>(dtype.lanes) << 16);
  auto it = dtype_cache.find(key);
  if (it != dtype_cache.end()) {
    Py_INCREF(it->second);
    return it->second;
  }
  TVMFFIAny text;
  tvm::ffi::details::InitNone(&text);
  if (TVMFFIDataTypeToString(&dtype, &text) != 0) return RaiseFFIError();
  PyObject* str = AnyToPyOwned(&text);
  if (str == nullptr) return nullptr;
  if (dtype_class == nullptr) return str;
  PyObject* out = PyObject_CallOneArg(dtype_class, str);
  Py_DECREF(str);
  if (out == nullptr) return nullptr;
  Py_INCREF(out);
  dtype_cache[key] = out;
  return out;
}

PyObject* MakeFieldDescriptor(const TVMFFIFieldInfo* info, int32_t owner_index) {
  auto* d = PyObject_New(PyFieldDescr, FieldDescrType);
  if (d == nullptr) return nullptr;
  d->info = *info;
  d->owner_index = owner_index;
  d->name = PyUnicode_FromStringAndSize(info->name.data, info->name.size);
  if (d->name == nullptr) Py_CLEAR(d);
  return reinterpret_cast<PyObject*>(d);
}

int InitObjectTypes(PyObject* module) {
  ObjectType = NewType(module, &object_spec, nullptr);
  FieldDescrType = NewType(module, &field_spec, nullptr);  // exported: core.FFIProperty
  return ObjectType != nullptr && FieldDescrType != nullptr ? 0 : -1;
}

}  // namespace tvm_ffi_py
