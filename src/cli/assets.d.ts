// Files the bundles embed (scripts/build.mjs): the shipped book as base64 text.
declare module '*.bin' {
  const base64: string;
  export default base64;
}
