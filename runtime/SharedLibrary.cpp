// libscanjit.so needs one source of its own: the library is the runtime
// archive linked whole (runtime/Shared.cmake).
