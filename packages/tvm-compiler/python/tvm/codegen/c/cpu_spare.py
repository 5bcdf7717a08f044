"""The C definition of tir.stmt.CPU_SPARE, added to a module whose parallel loops call it."""

CPU_SPARE_HELPER = r"""
#if defined(__linux__)
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>
#endif
/* Nonzero while the 1-minute load average is below the number of online CPUs (sysinfo),
 * re-read at most every 100 ms; always nonzero where that cannot be read. */
static int32_t tvm_cpu_spare(void) {
#if defined(__linux__)
  static int64_t checked_ms = -1000;
  static int32_t spare = 1;
  static long cpus = 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  int64_t ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
  if (ms - __atomic_load_n(&checked_ms, __ATOMIC_RELAXED) < 100) {
    return __atomic_load_n(&spare, __ATOMIC_RELAXED);
  }
  if (__atomic_load_n(&cpus, __ATOMIC_RELAXED) == 0) {
    __atomic_store_n(&cpus, sysconf(_SC_NPROCESSORS_ONLN), __ATOMIC_RELAXED);
  }
  struct sysinfo info;
  int32_t now_spare = 1;
  if (sysinfo(&info) == 0) {
    double load = (double)info.loads[0] / (double)(1 << SI_LOAD_SHIFT);
    now_spare = load < (double)__atomic_load_n(&cpus, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&spare, now_spare, __ATOMIC_RELAXED);
  __atomic_store_n(&checked_ms, ms, __ATOMIC_RELAXED);
  return now_spare;
#else
  return 1;
#endif
}
"""
