// Global functions that make Error objects and update their backtrace from any language.
#include <tvm_ffi/ffi.h>

#include <string>

namespace tvm {
namespace ffi {
namespace {

std::string TextArg(const PackedArgs& args, int32_t i, const char* func, const char* name) {
  std::optional<String> s = i < args.size() ? args[i].try_cast<String>() : std::nullopt;
  if (!s.has_value()) {
    TVM_FFI_THROW(TypeError) << func << ": argument `" << name << "` must be a str, got `"
                             << (i < args.size() ? args[i].GetTypeKey() : std::string("nothing"))
                             << "`";
  }
  return std::string(s->data(), s->size());
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def_packed("ffi.Error",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() != 3) {
                      TVM_FFI_THROW(TypeError)
                          << "ffi.Error: expects (kind, message, backtrace), got " << args.size()
                          << " arguments";
                    }
                    Error err(TextArg(args, 0, "ffi.Error", "kind"),
                              TextArg(args, 1, "ffi.Error", "message"),
                              TextArg(args, 2, "ffi.Error", "backtrace"));
                    *rv = static_cast<const ObjectRef&>(err);
                  })
      .def_packed("ffi.ErrorUpdateBacktrace", [](PackedArgs args, Any*) {
        // (error, backtrace, mode): mode 0 replaces, 1 puts the (older) frames in front.
        if (args.size() != 3 || args[0].type_index() != kTVMFFIError) {
          TVM_FFI_THROW(TypeError) << "ffi.ErrorUpdateBacktrace: expects (Error, str, int)";
        }
        std::string text = TextArg(args, 1, "ffi.ErrorUpdateBacktrace", "backtrace");
        std::optional<int64_t> mode = args[2].try_cast<int64_t>();
        if (!mode.has_value() || (*mode != kTVMFFIBacktraceUpdateModeReplace &&
                                  *mode != kTVMFFIBacktraceUpdateModeAppend)) {
          TVM_FFI_THROW(ValueError)
              << "ffi.ErrorUpdateBacktrace: argument `mode` must be 0 (replace) or 1 (append)";
        }
        TVMFFIObject* err = args[0].raw()->v_obj;
        TVMFFIByteArray bytes{text.data(), text.size()};
        TVMFFIErrorGetCell(err)->update_backtrace(err, &bytes, static_cast<int32_t>(*mode));
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
