#!/usr/bin/env node
// Runs before `npm test`: the tests use real peers (docs/testing.md) — redis-server, ngspice,
// chromium, the JDK (javac/java, the reference of the Java tests), curl and jq (the documentation
// examples). Missing ones are installed with apt as `npm install` installs the build packages
// (scripts/apt-install.mjs), or the test run stops with the command to run.
import { has, installOrStop } from './apt-install.mjs';

const needed = [
  { tool: 'redis-server', apt: 'redis-server' },
  { tool: 'ngspice', apt: 'ngspice' },
  { tool: 'chromium', apt: 'chromium' },
  { tool: 'javac', apt: 'openjdk-17-jdk-headless' },
  { tool: 'curl', apt: 'curl' },
  { tool: 'jq', apt: 'jq' },
];
installOrStop(needed.filter((n) => !has(n.tool)), 'npm test', 'Then run npm test again.');
