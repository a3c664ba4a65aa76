/** The `workerd` npm package: the path of the workerd binary for this platform. */
declare module 'workerd' {
  const path: string;
  export default path;
  export const version: string;
  export const compatibilityDate: string;
}
