package game

// worldCacheBudget is the memory the kept worlds may hold in the browser,
// whose page has far less to give than a desktop process: 256 MiB.
const worldCacheBudget = 256 << 20
