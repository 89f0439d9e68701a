// undici ships no types for its internal modules; this one is its Pool class (module.exports = Pool).
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
