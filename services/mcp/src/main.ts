import { configOrExit } from '@pp/config';
import { runStatelessService } from '@pp/runtime';
import { definition } from './app.ts';
import { readConfig } from './config.ts';

await runStatelessService(definition(configOrExit(readConfig)));
