#!/usr/bin/env node
import './cli/src/herald.js';
