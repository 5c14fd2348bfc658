// The one piece of Boost.Context's ucontext backend that lives in its compiled
// library: the thread's current activation record. Debian's libboost_context is built
// for the fcontext backend, so it lacks it; the sanitizer build (GPULIN_SANITIZE, which
// selects the ucontext backend for its ASan annotations, CMakeLists.txt) gets it here.
// Other builds compile this file to nothing.
#if defined(BOOST_USE_UCONTEXT)
#include <boost/context/fiber.hpp>

namespace boost::context::detail {

namespace {
// The record of the thread's own stack (its main context), made the first time the
// thread switches and freed when the thread ends.
struct MainContext {
  fiber_activation_record* record = new fiber_activation_record();
  ~MainContext() { delete record; }
};
}  // namespace

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local MainContext main;
  thread_local fiber_activation_record* running = main.record;
  return running;
}

}  // namespace boost::context::detail
#endif
