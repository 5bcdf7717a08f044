// Objects of Python-defined FFI types (py_class): the header, a slot count, then one Any per field.
#include <cstdlib>
#include <string>

#include "core.h"

namespace tvm_ffi_py {
namespace {

struct DynObject {
  TVMFFIObject header;
  int64_t num_slots;
  TVMFFIAny slots[1];  // num_slots of them (at least one is allocated)
};

constexpr int64_t kSlotsOffset = offsetof(DynObject, slots);

void DynObjectDeleter(TVMFFIObject* self, int flags) {
  auto* obj = reinterpret_cast<DynObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    for (int64_t i = 0; i < obj->num_slots; ++i) {
      TVMFFIAny value = obj->slots[i];
      tvm::ffi::details::InitNone(&obj->slots[i]);
      Any::FromTVMFFIAny(&value);  // released here
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(obj);
}

/*! A new object of type_index with num_slots None slots: one strong reference; NULL when out of
 * memory. */
DynObject* NewDynObject(int32_t type_index, int64_t num_slots) {
  size_t bytes =
      kSlotsOffset + sizeof(TVMFFIAny) * static_cast<size_t>(num_slots > 0 ? num_slots : 1);
  auto* obj = static_cast<DynObject*>(std::malloc(bytes));
  if (obj == nullptr) return nullptr;
  obj->header.combined_ref_count = tvm::ffi::details::kWeakOne | tvm::ffi::details::kStrongOne;
  obj->header.type_index = type_index;
  obj->header.__padding = 0;
  obj->header.deleter = DynObjectDeleter;
  obj->num_slots = num_slots;
  for (int64_t i = 0; i < num_slots; ++i) tvm::ffi::details::InitNone(&obj->slots[i]);
  return obj;
}

int SlotGetter(void* field, TVMFFIAny* result) {
  Any copy(*reinterpret_cast<const AnyView*>(field));
  copy.MoveToTVMFFIAny(result);
  return 0;
}

int SlotSetter(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any owned(*reinterpret_cast<const AnyView*>(value));  // borrowed strings become owned ones
  TVMFFIAny old = *static_cast<TVMFFIAny*>(field);
  owned.MoveToTVMFFIAny(static_cast<TVMFFIAny*>(field));
  Any::FromTVMFFIAny(&old);
  TVM_FFI_SAFE_CALL_END();
}

/*! A new reference of obj's handle when it is a live DynObject; NULL with TypeError otherwise. */
DynObject* DynOf(PyObject* obj, const char* func) {
  TVMFFIObject* h = PyObject_TypeCheck(obj, ObjectType) ? WrappedHandle(obj) : nullptr;
  if (h == nullptr || h->deleter != DynObjectDeleter) {
    SetError(PyExc_TypeError, "%s: expected an initialized py_class object, got %s", func,
             PyTypeName(obj));
    return nullptr;
  }
  return reinterpret_cast<DynObject*>(h);
}

void RegisterMethod(int32_t type_index, const char* name, tvm::ffi::Function f) {
  TVMFFIMethodInfo info;
  info.name = {name, std::char_traits<char>::length(name)};
  info.doc = {"", 0};
  info.flags = kTVMFFIMethodFlagBitMaskStatic;
  AnyView view(f);
  info.method = *view.raw();
  if (TVMFFITypeRegisterMethod(type_index, &info) != 0) throw tvm::ffi::details::MoveFromRaised();
}

/*!
 * register_py_class_type(key, parent_index, first_slot, names, flags, docs, kind) -> type_index.
 * The fields take slots first_slot.. (a parent py_class holds the ones before).
 */
PyObject* RegisterPyClassType(PyObject*, PyObject* args) {
  const char* key;
  int parent_index, first_slot, kind;
  PyObject *names, *flags, *docs;
  if (!PyArg_ParseTuple(args, "siiO!O!O!i:register_py_class_type", &key, &parent_index, &first_slot,
                        &PyList_Type, &names, &PyList_Type, &flags, &PyList_Type, &docs, &kind)) {
    return nullptr;
  }
  try {
    int32_t index = tvm::ffi::details::GetOrAllocTypeIndex(key, -1, parent_index);
    if (index < 0) return RaiseFFIError();
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    Py_ssize_t n = PyList_GET_SIZE(names);
    if (info->num_fields != 0 && info->num_fields != n) {
      SetError(
          PyExc_TypeError,
          "py_class: type key `%s` is already registered with %d fields; pick another type_key",
          key, info->num_fields);
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
      Py_ssize_t name_size, doc_size;
      const char* name = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(names, i), &name_size);
      const char* doc = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(docs, i), &doc_size);
      if (name == nullptr || doc == nullptr) return nullptr;
      TVMFFIFieldInfo field;
      field.name = {name, static_cast<size_t>(name_size)};
      field.doc = {doc, static_cast<size_t>(doc_size)};
      field.flags = PyLong_AsLongLong(PyList_GET_ITEM(flags, i));
      field.size = sizeof(TVMFFIAny);
      field.offset = kSlotsOffset + static_cast<int64_t>(sizeof(TVMFFIAny)) * (first_slot + i);
      field.getter = SlotGetter;
      field.setter = SlotSetter;
      field.field_static_type_index = kTVMFFIFieldStaticTypeAny;
      if (TVMFFITypeRegisterField(index, &field) != 0) return RaiseFFIError();
    }
    TVMFFITypeMetadata meta{{nullptr, 0}, kind};
    if (TVMFFITypeRegisterMetadata(index, &meta) != 0) return RaiseFFIError();
    int64_t total = first_slot + n;
    RegisterMethod(
        index, "__ffi_new__", tvm::ffi::Function::FromTyped([index, total]() {
          DynObject* obj = NewDynObject(index, total);
          if (obj == nullptr) throw std::bad_alloc();
          return tvm::ffi::ObjectRef(
              tvm::ffi::details::ObjectUnsafe::FromOwnedHeader<tvm::ffi::Object>(&obj->header));
        }));
    return PyLong_FromLong(index);
  } catch (...) {
    tvm::ffi::details::SetRaisedFromException(std::current_exception());
    return RaiseFFIError();
  }
}

/*! dyn_init(self, type_index, *values): gives self a new object holding the values, in slot order.
 */
PyObject* DynInit(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs < 2 || !PyObject_TypeCheck(args[0], ObjectType)) {
    SetError(PyExc_TypeError, "dyn_init: expects (self, type_index, *values)");
    return nullptr;
  }
  int32_t index = static_cast<int32_t>(PyLong_AsLong(args[1]));
  if (index == -1 && PyErr_Occurred()) return nullptr;
  DynObject* obj = NewDynObject(index, nargs - 2);
  if (obj == nullptr) return PyErr_NoMemory();
  for (Py_ssize_t i = 2; i < nargs; ++i) {
    if (PyToAnyOwned(args[i], &obj->slots[i - 2]) != 0) {
      tvm::ffi::Object::DecRefHeader(&obj->header);
      return nullptr;
    }
  }
  auto* self = reinterpret_cast<PyFFIObject*>(args[0]);
  TVMFFIObject* old = self->handle;
  self->handle = &obj->header;
  if (old) tvm::ffi::Object::DecRefHeader(old);
  Py_RETURN_NONE;
}

/*! dyn_copy(obj): a new object of obj's type holding the same values (a shallow copy). */
PyObject* DynCopy(PyObject*, PyObject* arg) {
  DynObject* src = DynOf(arg, "dyn_copy");
  if (src == nullptr) return nullptr;
  DynObject* obj = NewDynObject(src->header.type_index, src->num_slots);
  if (obj == nullptr) return PyErr_NoMemory();
  for (int64_t i = 0; i < src->num_slots; ++i) {
    Any copy(*reinterpret_cast<const AnyView*>(&src->slots[i]));
    copy.MoveToTVMFFIAny(&obj->slots[i]);
  }
  return WrapObject(&obj->header);
}

PyMethodDef dyn_methods[] = {
    {"register_py_class_type", RegisterPyClassType, METH_VARARGS,
     "register_py_class_type(key, parent_index, first_slot, names, flags, docs, kind) -> "
     "type_index"},
    {"dyn_init", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(DynInit)),
     METH_FASTCALL,
     "dyn_init(self, type_index, *values): attach a new py_class object holding the values"},
    {"dyn_copy", DynCopy, METH_O, "dyn_copy(obj): a shallow copy of a py_class object"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

bool DynObjectSlots(const TVMFFIObject* obj, const TVMFFIAny** slots, int64_t* num_slots) {
  if (obj->deleter != DynObjectDeleter) return false;
  const auto* dyn = reinterpret_cast<const DynObject*>(obj);
  *slots = dyn->slots;
  *num_slots = dyn->num_slots;
  return true;
}

int InitDynObject(PyObject* module) { return PyModule_AddFunctions(module, dyn_methods); }

}  // namespace tvm_ffi_py
