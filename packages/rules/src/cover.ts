// A book without a cover image gets a drawn one, by the API (an SVG in the answer) and by the
// storefront (when an image fails to load): the same title gets the same colour from both.

const PALETTE = ['#7c2d12', '#1e3a8a', '#065f46', '#581c87', '#9a3412', '#0f766e', '#831843', '#3f3f46'];

/** The drawn cover's colour for a title: a hash of its code points (an emoji counts once, as one character). */
export const drawnCoverColour = (title: string) =>
  PALETTE[[...title].reduce((hash, character) => (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0, 7) % PALETTE.length]!;
