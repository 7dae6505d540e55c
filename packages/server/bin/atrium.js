#!/usr/bin/env node
// The `atrium` command. TypeScript sources run through tsx's loader, so there is no build step
// between `npm install` and `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
