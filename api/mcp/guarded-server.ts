// The SDK's McpServer with our one error path for resource reads and their caching hints. A read
// that fails answers the error the protocol names, whatever the resource code threw: a NotFoundError
// (api/platform/errors.ts) or the SDK's ResourceNotFoundError is "resource not found" with the URI
// in `data` (-32602 on the wire at 2026-07-28; ./legacy-serving.ts answers -32002 to the 2025-era
// versions, as their specification asks), a BadRequestError is invalid params, another expected
// error keeps its client-safe message, and a fault is logged and answered "Internal error" without
// internals. A read answered at 2026-07-28 says how long it stays valid (./cache-hints.ts).
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceCallback,
  type ReadResourceTemplateCallback,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type ResourceMetadata,
  type ResourceTemplate,
  type CacheHint,
} from '@modelcontextprotocol/server';
import { HttpError, toErrorResponse } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

type ResourceConfig = ResourceMetadata & { cacheHint?: CacheHint };
type ReadCallback = ReadResourceCallback | ReadResourceTemplateCallback;

export interface ReadGuard {
  logger: Logger;
  /** The hint for a read of `uri` answered at 2026-07-28. */
  cacheHintFor(uri: string): Promise<CacheHint>;
}

/** The protocol error a failed read answers. */
export function readError(error: unknown, uri: string, logger: Logger): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const { body, expected } = toErrorResponse(error);
  if (!expected) {
    logger.error({ err: error, uri }, 'mcp resource read failed');
    return new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error.');
  }
  const status = error instanceof HttpError ? error.status : body.status;
  if (status === 404 || status === 410) return new ResourceNotFoundError(uri, body.error);
  if (status === 400) return new ProtocolError(ProtocolErrorCode.InvalidParams, body.error);
  return new ProtocolError(ProtocolErrorCode.InternalError, body.error);
}

/** A 2026-07-28 request carries the per-request envelope; the 2025-era versions do not. */
const servesModernRequest = (context: unknown): boolean =>
  (context as { mcpReq?: { envelope?: unknown } } | undefined)?.mcpReq?.envelope !== undefined;

export class GuardedMcpServer extends McpServer {
  #guard: ReadGuard | undefined;
  /** Called when the instance is closed, connected or not (./server-pool.ts takes it back then). */
  onIdle: (() => void) | undefined;

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.onIdle?.();
    }
  }

  /** Set before the resources are registered: their reads are wrapped as they register. */
  guardReads(guard: ReadGuard): void {
    this.#guard = guard;
  }

  override registerResource(name: string, uri: string, config: ResourceConfig, read: ReadResourceCallback): RegisteredResource;
  override registerResource(
    name: string,
    template: ResourceTemplate,
    config: ResourceConfig,
    read: ReadResourceTemplateCallback,
  ): RegisteredResourceTemplate;
  override registerResource(
    name: string,
    target: string | ResourceTemplate,
    config: ResourceConfig,
    read: ReadCallback,
  ): RegisteredResource | RegisteredResourceTemplate {
    const guarded = this.#guard === undefined ? read : guardedRead(read, this.#guard);
    return typeof target === 'string'
      ? super.registerResource(name, target, config, guarded as ReadResourceCallback)
      : super.registerResource(name, target, config, guarded as ReadResourceTemplateCallback);
  }
}

function guardedRead(read: ReadCallback, guard: ReadGuard): ReadCallback {
  return (async (...args: [URL, ...unknown[]]) => {
    const uri = args[0].href;
    let result;
    try {
      result = await (read as (...values: unknown[]) => ReturnType<ReadResourceCallback>)(...args);
    } catch (error) {
      throw readError(error, uri, guard.logger);
    }
    if (!servesModernRequest(args.at(-1)) || 'inputRequests' in result) return result;
    return { ...result, ...(await guard.cacheHintFor(uri)) };
  }) as ReadCallback;
}
