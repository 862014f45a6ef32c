// The sections of the documentation index (/docs), in the order it lists them. A file of docs/ names
// its section and its place in it in its front matter (site/content.config.ts checks both).
export interface DocSection {
  id: string;
  label: string;
  intro: string;
}

export const DOC_SECTIONS: readonly DocSection[] = [
  {
    id: 'api',
    label: 'Using the API',
    intro: 'What every operation shares, the MCP server, natural-language answers, keys and rate limits.',
  },
  {
    id: 'data',
    label: 'Data sources and methods',
    intro:
      'Where each figure comes from, how it is checked, and what the service decided where a publisher leaves ' +
      'a choice open.',
  },
  {
    id: 'operations',
    label: 'Running the service',
    intro: 'Configuration, health, several instances, security, tests and benchmarks.',
  },
  {
    id: 'project',
    label: 'Inside the project',
    intro:
      "The project's own words, how capabilities are declared, how the site is built, and how the benchmark " +
      'figures were reached.',
  },
];

/** Front matter of a file of docs/. */
export interface DocFrontMatter {
  title: string;
  description: string;
  section: string;
  order: number;
}
