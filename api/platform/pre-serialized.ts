// A JSON body serialised ahead of time (a cached string on a hot path), still typed by what it
// holds. Services keep answers this way; the route layer sends them as they are. It lives outside
// platform/http so a service can pre-serialise without importing the HTTP layer.
declare const serializedBody: unique symbol;

/** A JSON string typed by the value it holds, so a route returning it is checked against its 200 schema. */
export type PreSerialized<T> = string & { readonly [serializedBody]: T };

/** Serialises `value` once, keeping its type. */
export function preSerialize<T>(value: T): PreSerialized<T> {
  return JSON.stringify(value) as PreSerialized<T>;
}
