// Maps code addresses to source file and line, through libdw when the system has it.
#ifndef TVM_FFI_SRC_SOURCE_LINES_H_
#define TVM_FFI_SRC_SOURCE_LINES_H_

#include <string>

namespace tvm {
namespace ffi {
namespace details {

/*!
 * Fills file and line for a code address when libdw (elfutils) can be loaded and the
 * library holding the address carries line tables (-g or -g1). False otherwise, or when
 * the environment variable TVM_FFI_BACKTRACE_LINES is 0.
 */
bool LookupSourceLine(void* pc, std::string* file, int* line);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_SOURCE_LINES_H_
