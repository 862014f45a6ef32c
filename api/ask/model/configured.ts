// Whether /ask has a model to call: apart from the model answerer itself, so that deciding it does
// not load LangChain.
import type { Config } from '../../config.ts';

/** The settings the model answerer reads: which model, at which endpoint, with which key. */
export type ModelSettings = Pick<Config, 'ASK_MODEL' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY'>;

/** Whether a model is configured: an endpoint or a key (the official endpoint). */
export function modelConfigured(deps: { config: Pick<ModelSettings, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY'> }): boolean {
  return deps.config.OPENAI_BASE_URL !== undefined || deps.config.OPENAI_API_KEY !== undefined;
}
