"""The C definitions of tir.stmt.SPARE_THREADS and CPU_SPARE, added to a module whose parallel
loops call them.

A parallel loop whose team shares its CPUs with another busy thread waits at its closing
barrier for a worker the scheduler is not running: on a 2-CPU machine with one other busy
process, a 0.26 ms batch-64 MLP took 1-4 ms with two threads and a steady 0.41 ms with one. So
each parallel loop runs on as many threads as there are CPUs (of those this process may use)
that other threads left idle over the last ~200 ms: the CPUs' busy time (wall clock less their
idle time from /proc/stat) less the CPU time of the threads that ran this module's parallel
loops (its spinning workers are not contention; every other thread is, in this process too:
NumPy's BLAS workers busy-wait ~100 ms after each matmul). This is OpenMP's dynamic adjustment
(OMP_DYNAMIC) with a measure that leaves out the team itself; libgomp's own reads the load
average, which counts its spinning workers as load. OMP_DYNAMIC=false turns it off."""

# Called by every thread at the start of each top-level parallel region: the thread joins the
# set whose CPU time is the module's own.
TEAM_THREAD = "tvm_team_thread"

CPU_SPARE_HELPER = r"""
#if defined(__linux__)
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#endif
#ifdef _OPENMP
extern int omp_get_max_threads(void);
extern int omp_get_num_places(void);
extern int omp_get_place_num_procs(int place);
extern void omp_get_place_proc_ids(int place, int* ids);
#endif

#if defined(__linux__)
/* The CPUs of all of OpenMP's places (OMP_PLACES); 0 when there are none. */
static int tvm_place_cpus(cpu_set_t* cpus) {
  CPU_ZERO(cpus);
#ifdef _OPENMP
  int ids[CPU_SETSIZE];
  for (int place = 0; place < omp_get_num_places(); ++place) {
    int n = omp_get_place_num_procs(place);
    if (n <= 0 || n > CPU_SETSIZE) continue;
    omp_get_place_proc_ids(place, ids);
    for (int i = 0; i < n; ++i) {
      if (ids[i] >= 0 && ids[i] < CPU_SETSIZE) CPU_SET(ids[i], cpus);
    }
  }
#endif
  return CPU_COUNT(cpus);
}
#endif

#if defined(__linux__)
/* The CPU clocks of the threads that ran this module's parallel loops (OpenMP's workers and
 * the threads that called in): their CPU time is the module's own, any other thread's is
 * contention. A slot whose thread exited reads as an error and is dropped. Past TVM_TEAM_MAX
 * threads the count falls back to the whole process's CPU time. */
#define TVM_TEAM_MAX 256
static clockid_t tvm_team_clock[TVM_TEAM_MAX];
static int32_t tvm_team_ready[TVM_TEAM_MAX]; /* 1: clock set, 2: thread gone */
static double tvm_team_last[TVM_TEAM_MAX];   /* seconds at the last measurement */
static int32_t tvm_team_size = 0;
static __thread int32_t tvm_team_joined = 0;

static double tvm_clock_seconds(clockid_t id) {
  struct timespec t;
  if (clock_gettime(id, &t) != 0) return -1;
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A forked child has only the forking thread, under a new thread id: the table starts over. */
static void tvm_team_forget(void) {
  for (int32_t slot = 0; slot < TVM_TEAM_MAX; ++slot) tvm_team_ready[slot] = 0;
  tvm_team_size = 0;
  tvm_team_joined = 0;
}

static void tvm_team_thread(void) {
  if (tvm_team_joined) return;
  tvm_team_joined = 1;
  static int32_t forget_on_fork = 0;
  if (!__atomic_exchange_n(&forget_on_fork, 1, __ATOMIC_ACQ_REL)) {
    pthread_atfork(NULL, NULL, tvm_team_forget); /* glibc drops it if the module is unloaded */
  }
  clockid_t id;
  if (pthread_getcpuclockid(pthread_self(), &id) != 0) return;
  int32_t slot = __atomic_fetch_add(&tvm_team_size, 1, __ATOMIC_ACQ_REL);
  if (slot >= TVM_TEAM_MAX) return;
  tvm_team_clock[slot] = id;
  tvm_team_last[slot] = tvm_clock_seconds(id);
  __atomic_store_n(&tvm_team_ready[slot], 1, __ATOMIC_RELEASE);
}

/* Seconds of CPU the team used since the last call (only the measuring thread calls it); -1
 * when the team outgrew its table. */
static double tvm_team_seconds(void) {
  int32_t size = __atomic_load_n(&tvm_team_size, __ATOMIC_ACQUIRE);
  if (size > TVM_TEAM_MAX) return -1;
  double used = 0;
  for (int32_t slot = 0; slot < size; ++slot) {
    if (__atomic_load_n(&tvm_team_ready[slot], __ATOMIC_ACQUIRE) != 1) continue;
    double now = tvm_clock_seconds(tvm_team_clock[slot]);
    if (now < 0) {
      tvm_team_ready[slot] = 2;
      continue;
    }
    used += now - tvm_team_last[slot];
    tvm_team_last[slot] = now;
  }
  return used;
}
#else
static void tvm_team_thread(void) {}
#endif

#if defined(__linux__)
/* Idle jiffies (idle + iowait) of the CPUs in `allowed`, summed from /proc/stat's per-CPU
 * lines; -1 when it cannot be read. */
static double tvm_idle_jiffies(const cpu_set_t* allowed) {
  static char text[1 << 16];
  int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t size = 0;
  while (size < sizeof(text) - 1) {
    ssize_t got = read(fd, text + size, sizeof(text) - 1 - size);
    if (got <= 0) break;
    size += (size_t)got;
  }
  close(fd);
  text[size] = 0;
  double idle = 0;
  int found = 0;
  for (char* line = strstr(text, "\ncpu"); line; line = strstr(line + 1, "\ncpu")) {
    char* p = line + 4;
    if (*p < '0' || *p > '9') continue;
    long cpu = strtol(p, &p, 10);
    if (cpu >= CPU_SETSIZE || !CPU_ISSET((int)cpu, allowed)) continue;
    /* user nice system idle iowait ... */
    double field[5] = {0};
    for (int i = 0; i < 5; ++i) field[i] = (double)strtoull(p, &p, 10);
    idle += field[3] + field[4];
    ++found;
  }
  return found ? idle : -1;
}
#endif

/* Threads for a parallel loop now: the allowed CPUs that other processes left idle over the
 * last ~200 ms, at least 1 and at most omp_get_max_threads() and the allowed CPUs; re-measured
 * (with the allowed CPUs) at most every 200 ms (every thread of the allowed CPUs until the first
 * measurement, 200 ms after the first call).
 * OMP_DYNAMIC=false, or a system where this cannot be measured, keeps every thread. */
static int32_t tvm_spare_threads(void) {
#ifdef _OPENMP
  int32_t most = (int32_t)omp_get_max_threads();
#else
  int32_t most = 1;
#endif
#if defined(__linux__)
  static int32_t threads = 0; /* 0: not measured yet */
  static int64_t checked_ms = -1000000;
  static int32_t refreshing = 0, enabled = -1;
  static double last_idle, last_wall, last_self; /* last_wall 0: no sample yet */
  static cpu_set_t allowed;
  static int32_t allowed_count = 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  int64_t ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
  if (ms - __atomic_load_n(&checked_ms, __ATOMIC_ACQUIRE) >= 200 &&
      !__atomic_exchange_n(&refreshing, 1, __ATOMIC_ACQUIRE)) {
    static int32_t bound = 0;
    if (enabled < 0) {
      const char* dynamic = getenv("OMP_DYNAMIC");
      int32_t off = dynamic && (strcasecmp(dynamic, "false") == 0 || strcmp(dynamic, "0") == 0);
      const char* bind = getenv("OMP_PROC_BIND");
      bound = bind && strcasecmp(bind, "false") != 0;
      __atomic_store_n(&enabled, !off, __ATOMIC_RELAXED);
    }
    /* re-read each time: os.sched_setaffinity may have changed the CPUs since the last. Under
     * OMP_PROC_BIND libgomp pins this very thread to one place when it loads: the CPUs are
     * then those of all its places. */
    if (enabled && bound && tvm_place_cpus(&allowed) > 0) {
      int32_t count = CPU_COUNT(&allowed);
      if (count != allowed_count) last_wall = 0;
      __atomic_store_n(&allowed_count, count, __ATOMIC_RELAXED);
    } else if (enabled && sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
      int32_t count = CPU_COUNT(&allowed);
      if (count != allowed_count) last_wall = 0; /* the last sample summed other CPUs */
      __atomic_store_n(&allowed_count, count, __ATOMIC_RELAXED);
    } else {
      __atomic_store_n(&enabled, 0, __ATOMIC_RELAXED);
      __atomic_store_n(&allowed_count, 0, __ATOMIC_RELAXED);
    }
    /* Others' use over the window: its length on every allowed CPU (wall clock) less their
     * idle time less the team's CPU time (the whole process's where the team table is full).
     * /proc/stat counts in jiffies (10 ms), so the window is at least 200 ms: over 30 ms the
     * rounding alone read as half a CPU busy. */
    struct timespec wall, self;
    double idle = enabled ? tvm_idle_jiffies(&allowed) : -1;
    if (idle >= 0 && clock_gettime(CLOCK_MONOTONIC, &wall) == 0 &&
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &self) == 0) {
      double team = tvm_team_seconds(); /* since the last sample, as the other last_* values */
      double hz = (double)sysconf(_SC_CLK_TCK);
      double wall_jiffies = ((double)wall.tv_sec + wall.tv_nsec * 1e-9) * hz;
      double self_jiffies = ((double)self.tv_sec + self.tv_nsec * 1e-9) * hz;
      double window = wall_jiffies - last_wall; /* jiffies each CPU lived through */
      if (last_wall > 0 && window > 0) {
        double busy = window * allowed_count - (idle - last_idle);
        double own = team >= 0 ? team * hz : self_jiffies - last_self;
        double others = (busy - own) / window;
        /* a quarter of a CPU of others' use is noise, not a reason to drop a thread */
        int32_t spare = allowed_count - (int32_t)ceil(others - 0.25);
        __atomic_store_n(&threads, spare < 1 ? 1 : spare, __ATOMIC_RELAXED);
      }
      last_idle = idle, last_wall = wall_jiffies, last_self = self_jiffies;
    }
    __atomic_store_n(&checked_ms, ms, __ATOMIC_RELEASE);
    __atomic_store_n(&refreshing, 0, __ATOMIC_RELEASE);
  }
  /* Dynamic adjustment never runs more threads than the process has CPUs, not even before
   * the first measurement: OMP_NUM_THREADS=100000 would otherwise start 100000 threads. */
  int32_t cpus = __atomic_load_n(&allowed_count, __ATOMIC_RELAXED);
  if (cpus == 0 && __atomic_load_n(&enabled, __ATOMIC_RELAXED) != 0) {
    cpu_set_t mine; /* another thread is taking the first measurement */
    if (sched_getaffinity(0, sizeof(mine), &mine) == 0) cpus = CPU_COUNT(&mine);
  }
  if (cpus > 0 && cpus < most) most = cpus;
  int32_t measured = __atomic_load_n(&threads, __ATOMIC_RELAXED);
  if (measured > 0 && measured < most) return measured;
#endif
  return most;
}

/* Nonzero while a second thread would have a CPU of its own. */
static int32_t tvm_cpu_spare(void) { return tvm_spare_threads() > 1; }
"""
