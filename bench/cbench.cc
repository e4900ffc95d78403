// SPDX-License-Identifier: BSD-2-Clause
// bench/cbench.cc - the extern "C" shim behind bench/cbench.h: every call
// forwards to Google Benchmark.  cbench_state is a benchmark::State,
// cbench is a benchmark::internal::Benchmark; nothing else lives here.
#include <benchmark/benchmark.h>

#include <pthread.h>
#include <sched.h>

#include <string>
#include <vector>

#include "cbench.h"

namespace {

bool pin_threads = false;

benchmark::State &S(cbench_state *s) { return *reinterpret_cast<benchmark::State *>(s); }
const benchmark::State &S(const cbench_state *s)
{
	return *reinterpret_cast<const benchmark::State *>(s);
}
benchmark::internal::Benchmark *B(cbench *b)
{
	return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}
cbench *C(benchmark::internal::Benchmark *b) { return reinterpret_cast<cbench *>(b); }

void pin_self(int index)
{
	int n = benchmark::CPUInfo::Get().num_cpus;
	cpu_set_t set;

	if (n < 1)
		return;
	CPU_ZERO(&set);
	CPU_SET(index % n, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

} // namespace

extern "C" {

cbench *cbench_register(const char *name, cbench_fn fn, void *user)
{
	return C(benchmark::RegisterBenchmark(name, [fn, user](benchmark::State &st) {
		if (pin_threads)
			pin_self(st.thread_index());
		fn(reinterpret_cast<cbench_state *>(&st), user);
	}));
}

cbench *cbench_arg(cbench *b, int64_t x) { return C(B(b)->Arg(x)); }
cbench *cbench_args(cbench *b, const int64_t *x, size_t n)
{
	return C(B(b)->Args(std::vector<int64_t>(x, x + n)));
}
cbench *cbench_range(cbench *b, int64_t lo, int64_t hi) { return C(B(b)->Range(lo, hi)); }
cbench *cbench_dense_range(cbench *b, int64_t lo, int64_t hi, int step)
{
	return C(B(b)->DenseRange(lo, hi, step));
}
cbench *cbench_arg_name(cbench *b, const char *name) { return C(B(b)->ArgName(name)); }
cbench *cbench_threads(cbench *b, int n) { return C(B(b)->Threads(n)); }
cbench *cbench_thread_range(cbench *b, int lo, int hi) { return C(B(b)->ThreadRange(lo, hi)); }
cbench *cbench_use_real_time(cbench *b) { return C(B(b)->UseRealTime()); }
cbench *cbench_min_time(cbench *b, double seconds) { return C(B(b)->MinTime(seconds)); }
cbench *cbench_iterations_fixed(cbench *b, int64_t n) { return C(B(b)->Iterations(n)); }
cbench *cbench_repetitions(cbench *b, int n) { return C(B(b)->Repetitions(n)); }
cbench *cbench_unit(cbench *b, char unit)
{
	benchmark::TimeUnit u = unit == 'u'   ? benchmark::kMicrosecond
				: unit == 'm' ? benchmark::kMillisecond
				: unit == 's' ? benchmark::kSecond
					      : benchmark::kNanosecond;
	return C(B(b)->Unit(u));
}

bool cbench_keep_running(cbench_state *s) { return S(s).KeepRunning(); }
bool cbench_keep_running_batch(cbench_state *s, uint64_t n)
{
	return S(s).KeepRunningBatch(static_cast<benchmark::IterationCount>(n));
}
int cbench_thread_index(const cbench_state *s) { return S(s).thread_index(); }
int cbench_thread_count(const cbench_state *s) { return S(s).threads(); }
int64_t cbench_range_arg(const cbench_state *s, size_t i) { return S(s).range(i); }
int64_t cbench_iterations(const cbench_state *s)
{
	return static_cast<int64_t>(S(s).iterations());
}
int64_t cbench_max_iterations(const cbench_state *s)
{
	return static_cast<int64_t>(S(s).max_iterations);
}
void cbench_pause(cbench_state *s) { S(s).PauseTiming(); }
void cbench_resume(cbench_state *s) { S(s).ResumeTiming(); }
void cbench_skip_with_error(cbench_state *s, const char *msg) { S(s).SkipWithError(msg); }
bool cbench_error_occurred(const cbench_state *s) { return S(s).error_occurred(); }
void cbench_set_items_processed(cbench_state *s, int64_t n) { S(s).SetItemsProcessed(n); }
void cbench_set_bytes_processed(cbench_state *s, int64_t n) { S(s).SetBytesProcessed(n); }
void cbench_set_label(cbench_state *s, const char *label) { S(s).SetLabel(label); }

void cbench_counter(cbench_state *s, const char *name, double value, unsigned flags)
{
	int f = benchmark::Counter::kDefaults;

	if (flags & CBENCH_RATE)
		f |= benchmark::Counter::kIsRate;
	if (flags & CBENCH_AVG_THREADS)
		f |= benchmark::Counter::kAvgThreads;
	if (flags & CBENCH_AVG_ITERATIONS)
		f |= benchmark::Counter::kAvgIterations;
	S(s).counters[name] =
		benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void cbench_initialize(int *argc, char **argv) { benchmark::Initialize(argc, argv); }
bool cbench_report_unrecognized(int argc, char **argv)
{
	return benchmark::ReportUnrecognizedArguments(argc, argv);
}
void cbench_add_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}
void cbench_set_pin(bool on) { pin_threads = on; }
int cbench_num_cpus(void) { return benchmark::CPUInfo::Get().num_cpus; }
size_t cbench_run(void) { return benchmark::RunSpecifiedBenchmarks(); }
void cbench_shutdown(void) { benchmark::Shutdown(); }

} // extern "C"
