// How current a figure is, in the banner's words (see site/views/format.ts for why views exist): the
// freshness record the API's answers carry and the sentence that says a newer release is missing.
export type { Freshness } from '../../api/freshness/contract.ts';
export { staleSentence } from '../../api/freshness/assess.ts';
