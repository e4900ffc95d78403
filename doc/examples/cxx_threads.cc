// SPDX-License-Identifier: BSD-2-Clause
//
// doc/examples/cxx_threads.cc - libcaslist from C++: two lists shared by
// several std::threads, with adds, pops, move_head and racing deletes, and a
// conservation check at the end; then README's LRU example (touch / evict)
// from the same threads, with an exact count.  Public API only.
//
// Usage: cxx_threads [threads [ops-per-thread [nodes]]]   (default 8 20000 256)
// Prints TAP; exit 0 = every check passed.
//
// Ownership (the library's rule): a node that is not linked belongs to one
// thread.  Here each node is, at every instant, either on its home list (A
// for even ids, B for odd ids) or in exactly one thread's private pool.  A
// thread gets a node by popping it or by winning caslist_del_if_linked on
// it; it gives it up by adding it.  Each node's plain `owner` field is
// written only by its owner, and it is ordered only through the list's own
// release/acquire pairs: a TSan build checks exactly those.
#include <caslist/caslist.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int kInList = -1;

struct Obj {
	caslist_node link;	// intrusive: the list links objects, no allocation
	unsigned id;
	int owner;		// kInList or the owning thread's number (plain)
	int seen;		// the final check's mark
};

caslist_list lists[2];		// A = lists[0], B = lists[1]
std::vector<Obj> objs;

struct Counts {
	unsigned long adds = 0, pops = 0, moved = 0, move_gone = 0, dels = 0, del_lost = 0;
	unsigned long bad = 0;	// ownership violations seen by this thread
};

// splitmix64: a deterministic generator per thread.
std::uint64_t next_rand(std::uint64_t &s)
{
	std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

Obj *obj_of(caslist_node *n)
{
	return caslist_entry(n, Obj, link);
}

// A node just removed by thread `me`: it must have been on a list.
void take(Obj *o, int me, std::vector<Obj *> &pool, Counts &c)
{
	if (o->owner != kInList)
		c.bad++;
	o->owner = me;
	pool.push_back(o);
}

void worker(int me, unsigned long ops, std::vector<Obj *> &pool, Counts &c,
	    std::atomic<int> &go)
{
	std::uint64_t rng = 0x1234567ULL * (unsigned)(me + 1);

	while (go.load(std::memory_order_acquire) == 0)	// pairs with main's release
		std::this_thread::yield();
	for (unsigned long i = 0; i < ops; i++) {
		std::uint64_t r = next_rand(rng);
		unsigned op = (unsigned)(r % 100);
		Obj *o = &objs[(r >> 8) % objs.size()];

		if (op < 30) {			// add one of mine to its home list
			if (pool.empty())
				continue;
			Obj *m = pool.back();
			pool.pop_back();
			if (m->owner != me)
				c.bad++;
			m->owner = kInList;	// published by the add's release
			if (r & (1u << 20))
				caslist_add_head(&lists[m->id & 1], &m->link);
			else
				caslist_add_tail(&lists[m->id & 1], &m->link);
			c.adds++;
		} else if (op < 55) {		// pop from either end of either list
			caslist_list *l = &lists[(r >> 21) & 1];
			caslist_node *n = (r & (1u << 22)) ? caslist_pop_head(l) : caslist_pop_tail(l);
			if (n != nullptr) {
				take(obj_of(n), me, pool, c);
				c.pops++;
			}
		} else if (op < 80) {		// LRU rotate of any node, linked or not
			if (caslist_move_head(&lists[o->id & 1], &o->link) == CASLIST_OK)
				c.moved++;
			else
				c.move_gone++;
		} else {			// racing delete of any node
			if (caslist_del_if_linked(&o->link)) {
				take(o, me, pool, c);
				c.dels++;
			} else {
				c.del_lost++;
			}
		}
	}
}

// ---- README's example, from C++ ----
struct obj {
	int key;
	caslist_node lru;
};

caslist_list lru;	// caslist_init(&lru) once

int touch(obj *o)	// any thread, any object; 1 if it added o
{
	return caslist_touch(&lru, &o->lru) == CASLIST_TOUCH_ADDED;
}

obj *evict()		// any thread
{
	caslist_node *n = caslist_pop_tail(&lru);
	return n ? caslist_entry(n, obj, lru) : nullptr;
}

// Each thread touches random objects of a shared set (several threads
// touch the same object at once) and evicts now and then; it counts what
// its calls added and evicted.
void lru_worker(int me, unsigned long ops, std::vector<obj> &set, unsigned long &added,
		unsigned long &evicted, std::atomic<int> &go)
{
	std::uint64_t rng = 0x7654321ULL * (unsigned)(me + 1);

	while (go.load(std::memory_order_acquire) == 0)	// pairs with main's release
		std::this_thread::yield();
	for (unsigned long i = 0; i < ops; i++) {
		std::uint64_t r = next_rand(rng);
		if (r % 8 != 0)
			added += touch(&set[(r >> 8) % set.size()]);
		else if (evict() != nullptr)
			evicted++;
	}
}

int tap_n, tap_failed;

void ok(bool cond, const char *what)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	std::printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
}

} // namespace

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? std::atoi(argv[1]) : 8;
	unsigned long ops = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 20000;
	unsigned nodes = argc > 3 ? (unsigned)std::strtoul(argv[3], nullptr, 10) : 256;

	if (nthreads < 1 || nthreads > 256 || nodes < 2) {
		std::fprintf(stderr, "usage: cxx_threads [threads 1..256 [ops [nodes >= 2]]]\n");
		return 2;
	}
	caslist_init(&lists[0]);
	caslist_init(&lists[1]);
	objs.resize(nodes);
	std::vector<std::vector<Obj *>> pools(nthreads);
	std::vector<Counts> counts(nthreads);
	for (unsigned i = 0; i < nodes; i++) {
		objs[i].id = i;
		objs[i].seen = 0;
		caslist_node_init(&objs[i].link);
		if (i % 2 == 0) {		// half start on their lists, half in pools
			objs[i].owner = kInList;
			caslist_add_tail(&lists[i & 1], &objs[i].link);
		} else {
			objs[i].owner = (int)(i / 2) % nthreads;
			pools[objs[i].owner].push_back(&objs[i]);
		}
	}

	std::atomic<int> go(0);
	std::vector<std::thread> threads;
	for (int t = 0; t < nthreads; t++)
		threads.emplace_back(worker, t, ops, std::ref(pools[t]), std::ref(counts[t]),
				     std::ref(go));
	go.store(1, std::memory_order_release);	// pairs with the workers' acquire
	for (auto &th : threads)
		th.join();

	// Conservation: every node exactly once, on its home list or in one pool.
	Counts sum;
	size_t on_list[2] = { 0, 0 };
	bool structure_ok = true, home_ok = true, owner_ok = true, once_ok = true;
	for (int k = 0; k < 2; k++) {
		structure_ok &= caslist_check(&lists[k], nodes, &on_list[k]) == 0;
		caslist_node *cur = &lists[k].head;
		while (caslist_iter_next(&lists[k], &cur) == 1) {
			Obj *o = obj_of(cur);
			home_ok &= (int)(o->id & 1) == k;
			owner_ok &= o->owner == kInList;
			once_ok &= o->seen++ == 0;
		}
	}
	size_t in_pools = 0;
	for (int t = 0; t < nthreads; t++) {
		in_pools += pools[t].size();
		for (Obj *o : pools[t]) {
			owner_ok &= o->owner == t && !caslist_node_linked(&o->link);
			once_ok &= o->seen++ == 0;
		}
		sum.adds += counts[t].adds;
		sum.pops += counts[t].pops;
		sum.moved += counts[t].moved;
		sum.move_gone += counts[t].move_gone;
		sum.dels += counts[t].dels;
		sum.del_lost += counts[t].del_lost;
		sum.bad += counts[t].bad;
	}
	std::printf("# %d threads x %lu ops, %u nodes: %lu adds, %lu pops, %lu moves "
		    "(%lu not linked), %lu deletes won (%lu lost), on A/B %zu/%zu, pools %zu\n",
		    nthreads, ops, nodes, sum.adds, sum.pops, sum.moved, sum.move_gone, sum.dels,
		    sum.del_lost, on_list[0], on_list[1], in_pools);
	ok(structure_ok, "both lists pass caslist_check (next->prev == self, no lock left)");
	ok(on_list[0] + on_list[1] + in_pools == nodes, "conservation: lists + pools == nodes");
	ok(once_ok, "every node exactly once");
	ok(home_ok, "every listed node is on its home list");
	ok(owner_ok && sum.bad == 0, "ownership: removed nodes were listed, pooled nodes unlinked");
	// removals and adds balance: the list count moved by adds - removals
	ok((size_t)(nodes / 2 + nodes % 2) + sum.adds - sum.pops - sum.dels ==
		   on_list[0] + on_list[1],
	   "adds - pops - deletes == change in listed nodes");
	ok(nthreads == 1 || ops < 1000 || (sum.adds && sum.pops && sum.moved && sum.dels),
	   "every operation happened");

	// README's example from the same number of threads, on 64 shared objects.
	std::vector<obj> set(64);
	caslist_init(&lru);
	for (size_t i = 0; i < set.size(); i++) {
		set[i].key = (int)i;
		caslist_node_init(&set[i].lru);
	}
	std::vector<unsigned long> added(nthreads), evicted(nthreads);
	std::atomic<int> go2(0);
	threads.clear();
	for (int t = 0; t < nthreads; t++)
		threads.emplace_back(lru_worker, t, ops, std::ref(set), std::ref(added[t]),
				     std::ref(evicted[t]), std::ref(go2));
	go2.store(1, std::memory_order_release);	// pairs with the workers' acquire
	for (auto &th : threads)
		th.join();
	unsigned long add_sum = 0, evict_sum = 0;
	for (int t = 0; t < nthreads; t++) {
		add_sum += added[t];
		evict_sum += evicted[t];
	}
	size_t on_lru = 0;
	bool lru_ok = caslist_check(&lru, set.size(), &on_lru) == 0;
	std::printf("# README example: %d threads x %lu touch/evict on %zu objects: %lu added, "
		    "%lu evicted, %zu on the list\n",
		    nthreads, ops, set.size(), add_sum, evict_sum, on_lru);
	ok(lru_ok, "README example: the list passes caslist_check");
	ok(add_sum - evict_sum == on_lru, "README example: on the list == added - evicted");
	std::printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
