//go:build !js

package game

// worldCacheBudget is the memory the kept worlds may hold on the desktop:
// 1 GiB, eight 2049² eroded worlds or two of 4097².
const worldCacheBudget = 1 << 30
