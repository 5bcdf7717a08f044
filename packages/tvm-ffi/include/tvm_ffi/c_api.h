/* The tvm-ffi C ABI: the one contract between every language and library of the stack. */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tvm_ffi/dlpack.h"

/* ABI version. A library built against another major version is refused at load time. */
#define TVM_FFI_ABI_VERSION_MAJOR 1
#define TVM_FFI_ABI_VERSION_MINOR 4

/* The stack builds with GCC or Clang on ELF platforms only. */
#define TVM_FFI_DLL __attribute__((visibility("default")))
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#define TVM_FFI_WEAK __attribute__((weak))

/*
 * Rules every entry point below follows unless its comment says otherwise; docs/abi.md is
 * the full specification (layouts, reference counting, the error protocol, DLPack).
 * - Return code: a function returning int returns 0 on success and -1 on failure, with the
 *   failure stored as this thread's raised error (take it with TVMFFIErrorMoveFromRaised).
 *   No C++ exception ever leaves an entry point.
 * - Ownership: arguments (handles, byte arrays, TVMFFIAny values) are borrowed for the call.
 *   A handle or TVMFFIAny written through an `out` pointer is a new strong reference that the
 *   caller owns and releases with TVMFFIObjectDecRef.
 * - Threads: every entry point may be called from any thread. The global function
 *   registry, the type registry and the system library table are guarded by locks (type
 *   lookups by index take none: entries never move); the raised error and the current
 *   streams are per thread. Reference counts are atomic.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Type indices                                                         */
/* ------------------------------------------------------------------ */
typedef enum {
  /* POD values, held inline in TVMFFIAny. */
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  kTVMFFIDLTensorPtr = 7,
  kTVMFFIRawStr = 8,       /* borrowed NUL-terminated const char* (arguments only) */
  kTVMFFIByteArrayPtr = 9, /* borrowed TVMFFIByteArray* (arguments only) */
  kTVMFFISmallStr = 10,    /* up to 7 UTF-8 bytes inline in v_bytes, NUL-terminated */
  kTVMFFISmallBytes = 11,  /* up to 7 bytes inline in v_bytes */
  kTVMFFIStaticObjectBegin = 64,
  /* Built-in objects: v_obj points at a TVMFFIObject header. */
  kTVMFFIObject = 64,
  kTVMFFIStr = 65,
  kTVMFFIBytes = 66,
  kTVMFFIError = 67,
  kTVMFFIFunction = 68,
  kTVMFFIShape = 69,
  kTVMFFITensor = 70,
  kTVMFFIArray = 71,
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  kTVMFFIOpaquePyObject = 74,
  kTVMFFIList = 75, /* mutable, shared (no copy-on-write); same cell layout as Array */
  kTVMFFIDict = 76, /* mutable, shared (no copy-on-write) */
  kTVMFFIStaticObjectEnd,
  /* Registered (dynamic) types are allocated from here up. */
  kTVMFFIDynObjectBegin = 128
} TVMFFITypeIndex;

/* ------------------------------------------------------------------ */
/* Objects                                                              */
/* ------------------------------------------------------------------ */
/* Deleter flags: destroy the contents (last strong ref), free the memory (last weak ref). */
typedef enum {
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1,
  kTVMFFIObjectDeleterFlagBitMaskWeak = 2,
  kTVMFFIObjectDeleterFlagBitMaskBoth = 3
} TVMFFIObjectDeleterFlagBitMask;

/*
 * The header every object starts with. combined_ref_count holds the strong count in
 * its low 32 bits and the weak count in its high 32 bits; all strong references
 * together hold one weak reference, so the memory lives until both reach zero.
 */
typedef struct TVMFFIObject {
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t __padding;
  void (*deleter)(struct TVMFFIObject* self, int flags);
} TVMFFIObject;

typedef void* TVMFFIObjectHandle;

/* ------------------------------------------------------------------ */
/* Any: the 16-byte value every argument and result is carried in       */
/* ------------------------------------------------------------------ */
typedef struct TVMFFIAny {
  int32_t type_index;
  union {
    uint32_t zero_padding;
    uint32_t small_str_len; /* byte length for kTVMFFISmallStr / kTVMFFISmallBytes */
  };
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
  };
} TVMFFIAny;

/* A borrowed run of bytes. */
typedef struct {
  const char* data;
  size_t size;
} TVMFFIByteArray;

/* Cells that follow the object header of the built-in kinds (layout is ABI). */
typedef TVMFFIByteArray TVMFFIStringCell; /* String and Bytes: data is NUL-terminated */

typedef struct {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

typedef struct {
  TVMFFIAny* data; /* owned values */
  int64_t size;
} TVMFFISeqCell;

/* An opaque foreign object (kTVMFFIOpaquePyObject): the language's own handle to it (a
 * PyObject*). Two opaque objects with one handle are the same object, e.g. as Map keys. */
typedef struct {
  void* handle;
} TVMFFIOpaqueObjectCell;

/* ------------------------------------------------------------------ */
/* Functions                                                            */
/* ------------------------------------------------------------------ */
/*
 * The one calling convention. args are borrowed; *result starts as None and receives an
 * owned value. Returns 0 on success; on failure returns nonzero (-1 for an error, -2
 * when a signal such as SIGINT interrupted the call) with the error stored thread-locally
 * (TVMFFIErrorSetRaised).
 */
typedef int (*TVMFFISafeCallType)(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/* Follows the header of a Function object: calling it is safe_call(self, ...). */
typedef struct {
  TVMFFISafeCallType safe_call;
  void* self;
} TVMFFIFunctionCell;

/*
 * Wraps a C function and its context as a Function: calling it is safe_call(self, ...).
 * deleter(self) runs once when the Function's last reference goes (NULL: nothing to free).
 * *out: a new Function.
 */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);
/*
 * Calls a Function (func must be one; not checked) with the calling convention above: args
 * borrowed, *result (None on entry) receives an owned value. Returns the callee's code.
 */
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);
/*
 * Global registry (locked; safe from any thread). SetGlobal registers f (a Function, else a
 * TypeError) under name, keeping its own reference; an existing name is a KeyError unless
 * override is nonzero, which replaces it.
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int override);
/*
 * (ABI 1.3) SetGlobal that also keeps `metadata` (NULL: none) beside the function: a JSON
 * object such as {"type_schema": "<JSON schema of the signature>"}, stored verbatim. Plain
 * SetGlobal registers a function without metadata (a replaced function's metadata goes).
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobalWithMetadata(const TVMFFIByteArray* name,
                                                    TVMFFIObjectHandle f, int override,
                                                    const TVMFFIByteArray* metadata);
/*
 * (ABI 1.3) *out (None on entry) receives the metadata JSON of the global function `name` as
 * an owned str, or stays None when the function has none or no function has that name.
 */
TVM_FFI_DLL int TVMFFIFunctionGetGlobalMetadata(const TVMFFIByteArray* name, TVMFFIAny* out);
/* *out: a new reference to the function, or NULL when none has that name (not an error). */
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);
/* *removed is 1 when a function was removed, 0 when none had that name. */
TVM_FFI_DLL int TVMFFIFunctionRemoveGlobal(const TVMFFIByteArray* name, int* removed);
/* *out: a new Array of str holding every registered name, sorted. */
TVM_FFI_DLL int TVMFFIFunctionListGlobalNames(TVMFFIObjectHandle* out);

/*
 * A shared library exports a function `name` as the symbol `__tvm_ffi_<name>` of type
 * TVMFFISafeCallType (self is NULL), and declares its ABI with TVM_FFI_LIBRARY_ABI_TAG().
 */
#define TVM_FFI_SYMBOL_PREFIX "__tvm_ffi_"
#define TVM_FFI_ABI_TAG_SYMBOL "__tvm_ffi__abi_version"
#ifdef __cplusplus
/* C++: tvm_ffi/function.h already emits the tag in every translation unit that includes it. */
#define TVM_FFI_LIBRARY_ABI_TAG() static_assert(true, "")
#else
#define TVM_FFI_LIBRARY_ABI_TAG()                                         \
  TVM_FFI_DLL_EXPORT TVM_FFI_WEAK const uint32_t __tvm_ffi__abi_version = \
      (uint32_t)((TVM_FFI_ABI_VERSION_MAJOR << 16) | TVM_FFI_ABI_VERSION_MINOR)
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */
/* Backtrace text: one frame a line, `  File "F", line N, in FUNC`, most recent call last. */
typedef enum {
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1 /* the new frames are older: they go in front */
} TVMFFIBacktraceUpdateMode;

/* Follows the header of an Error object. */
typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
} TVMFFIErrorCell;

/*
 * *out: a new Error of `kind` (a class name such as "ValueError") with `message` and
 * `backtrace` (NULL: none), all three copied. It is not raised.
 */
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);
/* Stores err as this thread's raised error, taking its own reference (the caller keeps
 * theirs) and releasing the error raised before, if any. Cannot fail. */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle err);
/* For generated code: creates and raises an error of `kind` (NULL: "RuntimeError") with
 * `message` (NULL: empty), both copied. Cannot fail (out of memory leaves the slot as it was). */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);
/* Moves this thread's raised error into *out (the caller now owns it; NULL when none is
 * raised) and clears the slot. Cannot fail. */
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* out);
/*
 * Captures the native call stack as backtrace text (see above) into *out (an owned str),
 * with file:line:func as the innermost frame. Frames of the FFI's own dispatch, the C++
 * standard library, the interpreter and libc start-up are dropped; the environment
 * variable TVM_TRACEBACK_LIMIT caps the number of frames kept (default 64).
 */
TVM_FFI_DLL int TVMFFIBacktrace(const char* file, int line, const char* func, TVMFFIAny* out);

/* ------------------------------------------------------------------ */
/* Objects: reference counting and the type registry                    */
/* ------------------------------------------------------------------ */
/*
 * Adds / drops one strong reference (atomic; NULL is ignored). Dropping the last one runs the
 * deleter (see TVMFFIObjectDeleterFlagBitMask). Both always return 0.
 */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);
/*
 * (ABI 1.2) For code that drops strong references itself (the inline DecRef of the C++
 * headers): call it, after an acquire fence, once obj's strong count has reached zero. It runs
 * the deleter as TVMFFIObjectDecRef would. Destruction never recurses without bound: a release
 * nested more than a few dozen levels deep inside other deleters on this thread is queued and
 * run by the outermost one before it returns, so freeing a chain of any depth (an Array in an
 * Array in ...) uses bounded stack. Cannot fail.
 */
TVM_FFI_DLL void TVMFFIObjectDestroyUnreferenced(TVMFFIObjectHandle obj);

typedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result);
typedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value);

typedef enum {
  kTVMFFIFieldFlagBitMaskWritable = 1,
  /* (ABI 1.4; upstream's value) a call of the generated __ffi_init__ may leave the field out:
   * it then takes the value given to TVMFFITypeRegisterFieldDefault, or, when none was, keeps
   * the one the default constructor gave it */
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  /* structural_equal / structural_hash skip the field (e.g. a source span) */
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  /* the field defines variables: free variables met inside it may be mapped to each other */
  kTVMFFIFieldFlagBitMaskSEqHashDef = 1 << 4,
  /* (ABI 1.2; upstream's values) the field is left out of repr, of the field-wise == / ordering
   * and of the field-wise hash that dataclasses (c_class eq=True, unsafe_hash=True) build */
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  /* (ABI 1.4) the generated __ffi_init__ takes no argument for the field / takes it only by
   * name (after the KWARGS sentinel, see TVMFFITypeRegisterAutoInit) */
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10
} TVMFFIFieldFlagBitMask;

/* field_static_type_index of a field holding an Any (a TVMFFIAny at the offset) */
#define kTVMFFIFieldStaticTypeAny (-1)

typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  int64_t flags;
  int64_t size;
  int64_t offset; /* from the object header */
  TVMFFIFieldGetter getter;
  TVMFFIFieldSetter setter; /* NULL when read-only */
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

typedef enum { kTVMFFIMethodFlagBitMaskStatic = 1 } TVMFFIMethodFlagBitMask;

typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  int64_t flags;
  TVMFFIAny method; /* a Function; an instance method takes the object as argument 0 */
} TVMFFIMethodInfo;

typedef struct TVMFFITypeInfo {
  int32_t type_index;
  int32_t type_depth;
  TVMFFIByteArray type_key;
  /* type_ancestors[d] is the ancestor at depth d, for d < type_depth. */
  const struct TVMFFITypeInfo** type_ancestors;
  int32_t num_fields;
  int32_t num_methods;
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
} TVMFFITypeInfo;

/*
 * Returns the index of type_key, allocating one (from kTVMFFIDynObjectBegin up, or
 * static_type_index when it is >= 0) under parent_type_index (already registered) the first
 * time; the same key again returns the same index. Returns -1 with an error raised on failure.
 */
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t parent_type_index);
/* 0 and *out_tindex set, or -1 with a KeyError raised when the key is unknown. */
TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);
/* The type's entry, valid for the life of the process (lock-free); NULL when no type has
 * this index. */
TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);
/*
 * Adds a field or method to a registered type (unknown index: an error). The registry copies
 * name and doc and keeps its own reference to info->method. The first registration of a name
 * stands: the same layout (offset, size, flags) or method kind again is a no-op, another one
 * a ValueError (two libraries disagree on the type).
 */
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);

/* How structural_equal / structural_hash treat a type's objects (the values follow upstream's). */
typedef enum {
  kTVMFFISEqHashKindUnsupported = 0, /* structural comparison raises TypeError */
  kTVMFFISEqHashKindTreeNode = 1,    /* compare field by field */
  kTVMFFISEqHashKindFreeVar = 2,     /* a variable: equal by binding (def regions, map_free_vars) */
  kTVMFFISEqHashKindDAGNode = 3,     /* field by field, and sharing must correspond */
  kTVMFFISEqHashKindConstTreeNode = 4, /* like TreeNode, same pointer is equal at once */
  kTVMFFISEqHashKindUniqueInstance = 5 /* equal only to itself */
} TVMFFISEqHashKind;

typedef struct {
  TVMFFIByteArray doc;
  int32_t structural_eq_hash_kind; /* a TVMFFISEqHashKind */
} TVMFFITypeMetadata;

/* Registering again with the same kind is a no-op; another kind replaces it (last one wins). */
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata);
/* NULL when the type has none (then it is kTVMFFISEqHashKindUnsupported). */
TVM_FFI_DLL const TVMFFITypeMetadata* TVMFFIGetTypeMetadata(int32_t type_index);

/* (ABI 1.3) Which member TVMFFITypeRegisterMemberMetadata names. */
typedef enum { kTVMFFIMemberField = 0, kTVMFFIMemberMethod = 1 } TVMFFIMemberKind;
/*
 * (ABI 1.3) Keeps `metadata` (a JSON object such as {"type_schema": "{\"type\":\"int\"}"},
 * stored verbatim) beside the field or method `name` of a type, which must already be
 * registered (else a ValueError); registering again replaces it.
 */
TVM_FFI_DLL int TVMFFITypeRegisterMemberMetadata(int32_t type_index, int32_t kind,
                                                 const TVMFFIByteArray* name,
                                                 const TVMFFIByteArray* metadata);
/* (ABI 1.3) *out (None on entry): the member's metadata as an owned str, or None when none. */
TVM_FFI_DLL int TVMFFITypeGetMemberMetadata(int32_t type_index, int32_t kind,
                                            const TVMFFIByteArray* name, TVMFFIAny* out);
/*
 * (ABI 1.4) Keeps `value` (the registry takes its own reference) as the default of the field
 * `name` of a registered type; registering again replaces it. The field should carry
 * kTVMFFIFieldFlagBitMaskHasDefault. TVMFFITypeGetFieldDefault sets *found to 1 and *out (None
 * on entry) to an owned copy, or *found to 0 when the field has no registered default.
 */
TVM_FFI_DLL int TVMFFITypeRegisterFieldDefault(int32_t type_index, const TVMFFIByteArray* name,
                                               const TVMFFIAny* value);
TVM_FFI_DLL int TVMFFITypeGetFieldDefault(int32_t type_index, const TVMFFIByteArray* name,
                                          TVMFFIAny* out, int32_t* found);
/*
 * (ABI 1.4) Registers, as the static method __ffi_init__ (metadata {"auto_init": true}), a
 * constructor made from the fields of the type and its ancestors: it builds the object with
 * __ffi_new__ (which the type must have) and binds arguments to the fields without
 * kTVMFFIFieldFlagBitMaskInitOff, positionally (required fields first, then defaulted ones, in
 * declaration order) and, after the argument that is the KWARGS object (the global
 * ffi.GetKwargsObject), as name, value pairs. Fields left out take their defaults; a required
 * one left out is a TypeError.
 */
TVM_FFI_DLL int TVMFFITypeRegisterAutoInit(int32_t type_index);

/* ------------------------------------------------------------------ */
/* Strings, bytes, dtypes, tensors                                      */
/* ------------------------------------------------------------------ */
/* *out receives an owned str / bytes holding a copy of input: inline (kTVMFFISmallStr,
 * kTVMFFISmallBytes) up to 7 bytes, an object otherwise. */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* Parses a dtype name ("int32", "float16", "bfloat16", "float8_e4m3fn", "int8x4", ...) into
 * *out; a name it does not know is a ValueError. */
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);
/* *out receives an owned str such as "float32" or "int8x4". */
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/*
 * A Tensor object is the header followed by a DLTensor.
 * FromDLPack[Versioned]: *out is a new Tensor that takes ownership of `from` (its deleter runs
 * when the Tensor's last reference goes; the data is not copied). require_alignment (bytes,
 * 0: any) and require_contiguous (nonzero: compact row-major) make a tensor that misses them a
 * ValueError, as is another DLPack major version; on failure `from` still belongs to the caller.
 * ToDLPack[Versioned]: *out is a new managed tensor sharing the memory, holding a reference to
 * the Tensor until the consumer calls its deleter exactly once.
 */
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);

/* ------------------------------------------------------------------ */
/* Environment: the current work stream of each device                  */
/* ------------------------------------------------------------------ */
/* A device's stream (a cudaStream_t, ...), opaque to the FFI: it is never created or freed here. */
typedef void* TVMFFIStreamHandle;

/*
 * Sets this thread's current stream for (device_type, device_id); stores the one it replaces
 * in *opt_out_original_stream unless that is NULL. Kernels read it with TVMFFIEnvGetStream.
 */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);
/* This thread's current stream for the device; NULL (the default stream) when none was
 * set. Cannot fail. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/*
 * Registers `symbol` (a TVMFFISafeCallType) under `name`, e.g. "__tvm_ffi_my_func", for the
 * system library module (tvm_ffi.system_lib()): code linked into the process, not loaded
 * from a file. A later registration of the same name replaces the earlier one.
 */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

/*
 * (ABI 1.1) Long-running native code calls this now and then: nonzero when the surrounding
 * environment has a pending signal (Python: Ctrl-C), with that error raised (C++: throw
 * tvm::ffi::EnvErrorAlreadySet()). 0 when there is none or no environment registered a hook.
 */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);
/*
 * (ABI 1.1) Registers an environment hook by name. "PyErr_CheckSignals": an `int (*)(void)`
 * that takes whatever lock it needs and, when it returns nonzero, has raised the error (tvm_ffi
 * registers one at import). "PyGILState_Ensure" / "PyGILState_Release": called around the
 * check when set. Any other name is a ValueError.
 */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/* ------------------------------------------------------------------ */
/* Version                                                              */
/* ------------------------------------------------------------------ */
typedef struct {
  uint32_t major;
  uint32_t minor;
} TVMFFIVersion;

/* The ABI version of the loaded library (TVM_FFI_ABI_VERSION_* it was built with). */
TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out);

/* Inline accessors: the cells sit right after the 24-byte header. */
static inline TVMFFIFunctionCell* TVMFFIFunctionGetCell(TVMFFIObjectHandle f) {
  return (TVMFFIFunctionCell*)((char*)f + sizeof(TVMFFIObject));
}
static inline TVMFFIErrorCell* TVMFFIErrorGetCell(TVMFFIObjectHandle e) {
  return (TVMFFIErrorCell*)((char*)e + sizeof(TVMFFIObject));
}
static inline TVMFFIStringCell* TVMFFIStringGetCell(TVMFFIObjectHandle s) {
  return (TVMFFIStringCell*)((char*)s + sizeof(TVMFFIObject));
}
static inline TVMFFIShapeCell* TVMFFIShapeGetCell(TVMFFIObjectHandle s) {
  return (TVMFFIShapeCell*)((char*)s + sizeof(TVMFFIObject));
}
static inline TVMFFISeqCell* TVMFFIArrayGetCell(TVMFFIObjectHandle a) {
  return (TVMFFISeqCell*)((char*)a + sizeof(TVMFFIObject));
}
static inline TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCell(TVMFFIObjectHandle o) {
  return (TVMFFIOpaqueObjectCell*)((char*)o + sizeof(TVMFFIObject));
}
static inline DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle t) {
  return (DLTensor*)((char*)t + sizeof(TVMFFIObject));
}

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Layouts are part of the ABI. */
#ifdef __cplusplus
#define TVM_FFI_STATIC_ASSERT static_assert
#else
#define TVM_FFI_STATIC_ASSERT _Static_assert
#endif
TVM_FFI_STATIC_ASSERT(sizeof(TVMFFIAny) == 16, "TVMFFIAny is 16 bytes");
TVM_FFI_STATIC_ASSERT(offsetof(TVMFFIAny, v_int64) == 8, "Any payload at offset 8");
TVM_FFI_STATIC_ASSERT(sizeof(TVMFFIObject) == 24, "object header is 24 bytes");
TVM_FFI_STATIC_ASSERT(offsetof(TVMFFIObject, type_index) == 8, "type index at offset 8");
TVM_FFI_STATIC_ASSERT(offsetof(TVMFFIObject, deleter) == 16, "deleter at offset 16");
TVM_FFI_STATIC_ASSERT(sizeof(TVMFFIByteArray) == 16, "byte array is 16 bytes");
TVM_FFI_STATIC_ASSERT(sizeof(TVMFFIFunctionCell) == 16, "function cell is 16 bytes");
TVM_FFI_STATIC_ASSERT(sizeof(TVMFFISeqCell) == 16, "sequence cell is 16 bytes");
TVM_FFI_STATIC_ASSERT(sizeof(DLDataType) == 4, "DLDataType is 4 bytes");
TVM_FFI_STATIC_ASSERT(sizeof(DLDevice) == 8, "DLDevice is 8 bytes");
TVM_FFI_STATIC_ASSERT(sizeof(DLTensor) == 48, "DLTensor is 48 bytes");

#endif /* TVM_FFI_C_API_H_ */
