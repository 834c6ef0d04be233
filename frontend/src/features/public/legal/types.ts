/** One clause of a legal text: paragraphs, then an optional numbered list. */
export interface Clause {
  title: string;
  paragraphs: string[];
  items?: string[];
}
