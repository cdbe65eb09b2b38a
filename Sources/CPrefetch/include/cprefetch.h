#ifndef CPREFETCH_H
#define CPREFETCH_H
/// Asks the processor to bring the cache line at `address` in, without waiting
/// for it (a hint: no fault, whatever the address).
static inline void cpf_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
