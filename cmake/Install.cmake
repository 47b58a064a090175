# cmake --install: the public headers, libscanjit.so, the scanjit CLI (when
# built), a CMake package (scanjit::scanjit) and a pkg-config file. A
# consumer needs nothing else at build time: no LLVM, no NVRTC headers.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(scanjit_shared PROPERTIES INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
install(TARGETS scanjit_shared EXPORT scanjitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/scanjit ${PROJECT_SOURCE_DIR}/runtime/include/scanjit
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET scanjit)
  set_target_properties(scanjit PROPERTIES INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
  install(TARGETS scanjit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(scanjit_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/scanjit)
install(EXPORT scanjitTargets NAMESPACE scanjit:: DESTINATION ${scanjit_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/scanjitConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/scanjitConfig.cmake INSTALL_DESTINATION ${scanjit_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/scanjitConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/scanjitConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/scanjitConfigVersion.cmake
        DESTINATION ${scanjit_cmake_dir})
configure_file(${CMAKE_CURRENT_LIST_DIR}/scanjit.pc.in ${CMAKE_CURRENT_BINARY_DIR}/scanjit.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/scanjit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
