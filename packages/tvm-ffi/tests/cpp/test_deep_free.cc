// Freeing million-deep nests (Array, Map, a user object chain, a mix) must not overflow the
// stack, must destroy every node before the last release returns, and must keep weak refs right.
#include <pthread.h>
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
constexpr int kDepth = 1000000;
int64_t alive = 0;

/*! A user object holding the next one: its destructor releases the whole rest of the chain. */
class ChainNode : public Object {
 public:
  ObjectRef next;
  explicit ChainNode(ObjectRef n) : next(std::move(n)) { ++alive; }
  ~ChainNode() { --alive; }
  TVM_FFI_DECLARE_OBJECT_INFO("cpptest.ChainNode", ChainNode, Object);
};

class ChainRef : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS(ChainRef, ObjectRef, ChainNode);
};

ObjectRef Node(ObjectRef next) { return ChainRef(make_object<ChainNode>(std::move(next))); }

void DeepArray() {
  Array<Any> nest;
  for (int i = 0; i < kDepth; ++i) nest = Array<Any>{Any(nest)};
  CHECK_EQ(nest.size(), 1u);
  nest = Array<Any>();  // releases the million-deep chain
  CHECK_EQ(nest.size(), 0u);
}

void DeepMap() {
  Map<Any, Any> nest;
  for (int i = 0; i < kDepth; ++i) {
    Map<Any, Any> outer;
    outer.Set(Any(int64_t(i)), Any(nest));
    nest = outer;
  }
  CHECK_EQ(nest.size(), 1u);
  nest = Map<Any, Any>();
}

void DeepUserChain() {
  alive = 0;
  ObjectRef head;
  for (int i = 0; i < kDepth; ++i) head = Node(head);
  CHECK_EQ(alive, kDepth);
  head = ObjectRef();
  // Every node is destroyed by the time the last release returns, queued ones included.
  CHECK_EQ(alive, 0);
}

void DeepMixed() {
  // Array -> Map -> user node -> Array -> ...: the queue serves every kind of deleter.
  alive = 0;
  Any nest;
  for (int i = 0; i < kDepth / 3; ++i) {
    Map<Any, Any> m;
    m.Set(Any(String("next")), Any(Array<Any>{nest}));
    nest = Any(Node(m));
  }
  CHECK_EQ(alive, kDepth / 3);
  nest = Any();
  CHECK_EQ(alive, 0);
}

void WeakRefsIntoDeepChain() {
  // A weak reference to the innermost node outlives the chain; the memory goes when it does.
  alive = 0;
  ObjectPtr<ChainNode> innermost = make_object<ChainNode>(ObjectRef());
  WeakObjectPtr<ChainNode> weak(innermost);
  ObjectRef head = ChainRef(ObjectPtr<Object>(innermost));
  innermost.reset();
  for (int i = 0; i < kDepth; ++i) head = Node(head);
  CHECK(!weak.expired());
  head = ObjectRef();
  CHECK(weak.expired());
  CHECK(weak.lock() == nullptr);
  CHECK_EQ(alive, 0);
}

void* RunAll(void*) {
  DeepArray();
  DeepMap();
  DeepUserChain();
  DeepMixed();
  WeakRefsIntoDeepChain();
  return nullptr;
}
}  // namespace

int main() {
  RunAll(nullptr);
  // Again on a thread with a 256 KiB stack: destruction uses bounded stack, not "a big one".
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_t thread;
  CHECK_EQ(pthread_create(&thread, &attr, RunAll, nullptr), 0);
  CHECK_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
  return check::Report("test_deep_free");
}
