# libscanjit.so: the runtime (and everything behind it, LLVM Support
# included) in one shared library that exports only the scanjit API
# (scanjit.map), with the version in its SONAME. NVRTC stays a shared
# dependency; libcuda.so.1 is dlopen'ed as everywhere.
add_library(scanjit_shared SHARED ${CMAKE_CURRENT_LIST_DIR}/SharedLibrary.cpp)
target_link_libraries(scanjit_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,scanjit_runtime>")
# scanjit::errorCodeName (core/) is public API that no runtime object uses.
target_link_options(scanjit_shared PRIVATE "LINKER:--undefined=_ZN7scanjit13errorCodeNameENS_9ErrorCodeE")
target_include_directories(scanjit_shared PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include>
                                                 $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/core/include>
                                                 $<INSTALL_INTERFACE:include>)
target_link_options(scanjit_shared PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_LIST_DIR}/scanjit.map"
                                           "LINKER:--no-undefined")
set_target_properties(scanjit_shared PROPERTIES
  OUTPUT_NAME scanjit
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  EXPORT_NAME scanjit
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/scanjit.map)
