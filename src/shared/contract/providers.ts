/**
 * LLM providers and models (docs/architecture.md "Models and fallback"): the `providers:*` and `models:*` calls. These
 * request schemas are also the core's validation of provider/model input, so the bridge and the repository cannot
 * disagree. API keys are write-only: `providers:create` and `providers:setKey` accept one; nothing ever returns it,
 * only `hasKey`.
 */
import { z } from 'zod';
import { REASONING_LEVELS, type ReasoningLevel } from '../providers/descriptor';
import { isKnownProviderKind, PROVIDER_KINDS } from '../providers/registry';
import { defineCall, id } from './define';

/**
 * A provider kind's name. Kinds are the descriptors of `shared/providers/list.ts` (docs/providers.md); a request may
 * name only a known one, while a stored provider may carry one this build does not know (its view still lists it).
 */
export type ProviderKind = string;
export const ProviderKindSchema = z
  .string()
  .max(64)
  .refine(isKnownProviderKind, { error: `the provider kind must be one of: ${PROVIDER_KINDS.join(', ')}` });

const baseUrl = z.url({ protocol: /^https?$/, error: 'the base URL must be an http(s) URL' }).max(500);
const name = z.string().trim().min(1, 'a name is required').max(100);
const apiKey = z.string().min(1).max(4_096);
const modelId = z.string().trim().min(1, 'a model id is required').max(200);
const price = z.number().finite().min(0).max(10_000).nullable();
const priority = z.number().int().min(0).max(1_000_000);
const contextWindow = z.number().int().positive().max(100_000_000).nullable();
/**
 * How much the model reasons before it answers (docs/models.md "Reasoning"): `off` sends nothing extra; the
 * others go to the provider in its own form. Only for models that reason: one that does not may refuse the request.
 */
export { REASONING_LEVELS, type ReasoningLevel };
export const ReasoningLevelSchema = z.enum(REASONING_LEVELS);

export const ProviderCreateSchema = z
  .object({
    kind: ProviderKindSchema,
    name,
    baseUrl: baseUrl.optional(),
    enabled: z.boolean().optional(),
    apiKey: apiKey.optional(),
  })
  .strict();
export const ProviderUpdateSchema = z
  .object({ id, name: name.optional(), baseUrl: baseUrl.optional(), enabled: z.boolean().optional() })
  .strict();
/** `null` removes the stored key. */
export const ProviderSetKeySchema = z.object({ id, apiKey: apiKey.nullable() }).strict();

export const ModelCreateSchema = z
  .object({
    providerId: id,
    modelId,
    displayName: z.string().trim().max(200).optional(),
    /** Lower is tried first; default: after every existing model. */
    priority: priority.optional(),
    inputPricePerM: price.optional(),
    outputPricePerM: price.optional(),
    contextWindow: contextWindow.optional(),
    /** Default `off`. */
    reasoning: ReasoningLevelSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
/** Any field of a model but its provider, by id. */
export const ModelUpdateSchema = ModelCreateSchema.omit({ providerId: true }).partial().extend({ id }).strict();
/** Every model id, in the new order (first = tried first). */
export const ModelReorderSchema = z.object({ ids: z.array(id).max(1_000) }).strict();

export type ProviderCreate = z.infer<typeof ProviderCreateSchema>;
export type ProviderUpdate = z.infer<typeof ProviderUpdateSchema>;
export type ModelCreate = z.infer<typeof ModelCreateSchema>;
export type ModelUpdate = z.infer<typeof ModelUpdateSchema>;

export const ProviderViewSchema = z.object({
  id: z.number(),
  /** As stored: possibly a kind this build does not know (shown as such; its models fail with a clear error). */
  kind: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  enabled: z.boolean(),
  hasKey: z.boolean(),
});
export type ProviderView = z.infer<typeof ProviderViewSchema>;

/** The outcome of the model's last real call since start (`unknown`: not called yet), with its error. */
export const ModelHealthSchema = z.object({
  state: z.enum(['unknown', 'ok', 'failing']),
  error: z.string().nullable(),
  at: z.number().nullable(),
  failuresInARow: z.number().int().min(0),
});
export type ModelHealthView = z.infer<typeof ModelHealthSchema>;
export const ModelViewSchema = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  modelId: z.string(),
  displayName: z.string(),
  priority: z.number(),
  inputPricePerM: z.number().nullable(),
  outputPricePerM: z.number().nullable(),
  contextWindow: z.number().nullable(),
  reasoning: ReasoningLevelSchema,
  enabled: z.boolean(),
  health: ModelHealthSchema,
});
export type ModelView = z.infer<typeof ModelViewSchema>;

/**
 * Each listed model's context window, by id, where the provider's list says it (docs/architecture.md "Fitting the
 * context window"); optional, so an answer without it still parses.
 */
const ListedWindowsSchema = z.record(z.string(), z.number().int().min(1_000).max(10_000_000)).optional();
/** One real request to the provider (`GET <baseUrl>/models`): reachable, key accepted, and the models it lists. */
export const ProbeResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    models: z.array(z.string()),
    contextWindows: ListedWindowsSchema,
    latencyMs: z.number(),
  }),
  z.object({ ok: z.literal(false), status: z.number().nullable(), message: z.string(), latencyMs: z.number() }),
]);
export type ProbeResult = z.infer<typeof ProbeResultSchema>;
export const LocalProviderSchema = z.object({
  kind: ProviderKindSchema,
  name: z.string(),
  baseUrl: z.string(),
  models: z.array(z.string()),
  contextWindows: ListedWindowsSchema,
});
export type LocalProvider = z.infer<typeof LocalProviderSchema>;

const empty = z.object({}).strict();
const byId = z.object({ id }).strict();
const ok = z.object({ ok: z.literal(true) });

export const providerCalls = {
  'providers:list': defineCall(empty, z.object({ providers: z.array(ProviderViewSchema) })),
  'providers:create': defineCall(ProviderCreateSchema, z.object({ provider: ProviderViewSchema })),
  'providers:update': defineCall(ProviderUpdateSchema, z.object({ provider: ProviderViewSchema })),
  /** Deletes its models and its stored key too. */
  'providers:delete': defineCall(byId, ok),
  'providers:setKey': defineCall(ProviderSetKeySchema, z.object({ provider: ProviderViewSchema })),
  /** Tests a saved provider with its stored key. */
  'providers:test': defineCall(byId, ProbeResultSchema),
  /** Tests a provider before it is saved (first run, the add form); the key is used for this request only. */
  'providers:probe': defineCall(
    z.object({ kind: ProviderKindSchema, baseUrl: baseUrl.optional(), apiKey: apiKey.optional() }).strict(),
    ProbeResultSchema,
  ),
  /** The local kinds' servers (Ollama, LM Studio) on this computer's default ports, when they answer. */
  'providers:discoverLocal': defineCall(empty, z.object({ found: z.array(LocalProviderSchema) })),
  'models:list': defineCall(empty, z.object({ models: z.array(ModelViewSchema) })),
  'models:create': defineCall(ModelCreateSchema, z.object({ model: ModelViewSchema })),
  'models:update': defineCall(ModelUpdateSchema, z.object({ model: ModelViewSchema })),
  'models:delete': defineCall(byId, ok),
  'models:reorder': defineCall(ModelReorderSchema, z.object({ models: z.array(ModelViewSchema) })),
} as const;
