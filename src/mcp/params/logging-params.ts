import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { LOGGING_LEVELS, parseLoggingLevel } from '../../spec/logging-levels.js';
import type { SetLevelParams } from '../../spec/types.js';
import { invalidParam, paramsObject } from './params-reader.js';

/** `logging/setLevel`: the level in any case; a missing level means info (as 1.x did). */
export function parseSetLevelParams(params: JsonRpcParams | undefined): SetLevelParams {
  const raw = paramsObject(params).level;
  if (raw === undefined || raw === null) return { level: 'info' };
  const level = parseLoggingLevel(raw);
  if (!level) throw invalidParam('level', 'Invalid log level', { level: raw, valid: LOGGING_LEVELS });
  return { level };
}
