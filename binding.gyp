# node-gyp build of the same sources as CMakeLists.txt, for users without cmake. Eigen is a system
# include (-isystem), as in CMake, so that GCC's false positives inside its headers do not fail -Werror.
# The Parquet writer links the system's snappy, lz4 and zlib (Debian: libsnappy-dev liblz4-dev zlib1g-dev).
#   npx node-gyp rebuild --nodedir=/usr     (output: build/Release/pesim.node; move it to build-gyp/)
# The prebuilt binary (PESIM_STATIC_LIBS=1, set by `npm run prebuild`) links the static archives of
# snappy, lz4 and zlib from PESIM_STATIC_LIB_DIR (default /usr/lib/x86_64-linux-gnu), and libstdc++
# and libgcc statically, hiding their symbols: it needs only glibc on the machine that loads it.
{
  "variables": {
    "pesim_static_libs%": "<!(node -p \"process.env.PESIM_STATIC_LIBS === '1' ? 1 : 0\")",
    "pesim_static_lib_dir%": "<!(node -p \"process.env.PESIM_STATIC_LIB_DIR || '/usr/lib/x86_64-linux-gnu'\")"
  },
  "targets": [
    {
      "target_name": "pesim",
      "sources": [
        "<!@(node -p \"require('fs').readdirSync('native/addon').filter(f => f.endsWith('.cc')).map(f => 'native/addon/' + f).join(' ')\")",
        "<!@(node -p \"require('fs').readdirSync('native/core/src', {recursive: true}).filter(f => f.endsWith('.cpp')).map(f => 'native/core/src/' + f.split(require('path').sep).join('/')).join(' ')\")"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "native/core/include",
        "native/core/src"
      ],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "conditions": [
        ["pesim_static_libs==1", {
          "libraries": [
            "<(pesim_static_lib_dir)/libsnappy.a", "<(pesim_static_lib_dir)/liblz4.a", "<(pesim_static_lib_dir)/libz.a",
            "-static-libstdc++", "-static-libgcc", "-Wl,--exclude-libs,ALL"
          ]
        }, {
          "libraries": ["-lsnappy", "-llz4", "-lz"]
        }]
      ],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": [
        "-std=c++17", "-O3", "-Wall", "-Wextra", "-Werror", "-fexceptions", "-fno-semantic-interposition", "-fvisibility=hidden",
        "-isystem", "<!(node -p \"process.env.EIGEN3_INCLUDE_DIR || '/usr/include/eigen3'\")"
      ],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "OTHER_CPLUSPLUSFLAGS": ["-O3", "-Wall", "-Wextra", "-Werror", "-isystem", "<!(node -p \"process.env.EIGEN3_INCLUDE_DIR || '/usr/include/eigen3'\")"]
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17", "/W4", "/WX"] }
      }
    }
  ]
}
