// A non-owning reference to a callable, for the memory model's per-access callbacks
// (which store a load reads, what an RMW writes): made from a lambda or a
// std::function at the call, it costs a pointer pair, where a std::function made on
// every access costs its construction and destruction. It must not outlive what it
// refers to: a parameter type only.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace gpulin::sim::memory {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f)  // NOLINT: implicit, as a std::function parameter is
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace gpulin::sim::memory
