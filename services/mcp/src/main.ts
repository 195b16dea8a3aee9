import { runStatelessService } from '@pp/runtime';
import { definition } from './app.ts';
import { readConfig } from './config.ts';

await runStatelessService(definition(readConfig()));
