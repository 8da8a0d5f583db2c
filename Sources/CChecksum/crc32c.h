/* CRC-32C (Castagnoli, the iSCSI/ext4 checksum: reflected polynomial 0x82F63B78), for
   CoolcalSupport's Checksum (the only importer): the bytes of a large calendar are
   checksummed while they are scanned and again before the rename (issue #48). On x86-64
   with SSE 4.2 the CPU's crc32 instruction does 8 bytes a step, three streams at once; elsewhere a
   byte-at-a-time table. The value is the usual one: crc32c("123456789") = 0xE3069283. */
#ifndef COOLCAL_CRC32C_H
#define COOLCAL_CRC32C_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

static inline uint32_t coolcal_crc32c_table_entry(uint32_t n) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    return c;
}

/* Byte at a time: computes each table entry on the fly into a table filled once per call
   site's first use (races only ever write the same values). */
static inline uint32_t coolcal_crc32c_software(uint32_t crc, const uint8_t *p, size_t n) {
    static uint32_t table[256];
    static int filled = 0;
    if (!__atomic_load_n(&filled, __ATOMIC_ACQUIRE)) {
        for (uint32_t i = 0; i < 256; i++) table[i] = coolcal_crc32c_table_entry(i);
        __atomic_store_n(&filled, 1, __ATOMIC_RELEASE);
    }
    while (n--) crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static inline uint32_t coolcal_crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    uint64_t c = crc;
    while (n >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return c32;
}

/* Three streams at once: the crc32 instruction takes 3 cycles and can start every cycle, so
   one dependent chain uses a third of it. Each round checksums three consecutive blocks of
   COOLCAL_CRC32C_BLOCK bytes side by side (the second and third from 0) and joins them:
   the raw CRC is linear, crc(c, A|B) = shift(crc(c, A), |B|) ^ crc(0, B), where shift
   appends |B| zero bytes; shifting by one block is a linear map on 32 bits, applied by
   four tables of 256 made once (from the instruction itself). */
#define COOLCAL_CRC32C_BLOCK 4096

__attribute__((target("sse4.2")))
static inline uint32_t coolcal_crc32c_zeros(uint32_t c, size_t n) {
    uint64_t w = c;
    for (size_t i = 0; i < n / 8; i++) w = __builtin_ia32_crc32di(w, 0);
    return (uint32_t)w;
}

__attribute__((target("sse4.2")))
static inline const uint32_t *coolcal_crc32c_shift_tables(void) {
    static uint32_t tables[4][256];
    static int made = 0;
    if (!__atomic_load_n(&made, __ATOMIC_ACQUIRE)) {
        for (int k = 0; k < 4; k++)
            for (uint32_t b = 0; b < 256; b++) tables[k][b] = coolcal_crc32c_zeros(b << (8 * k), COOLCAL_CRC32C_BLOCK);
        __atomic_store_n(&made, 1, __ATOMIC_RELEASE);
    }
    return &tables[0][0];
}

static inline uint32_t coolcal_crc32c_shift(const uint32_t *t, uint32_t c) {
    return t[c & 0xFF] ^ t[256 + ((c >> 8) & 0xFF)] ^ t[512 + ((c >> 16) & 0xFF)] ^ t[768 + (c >> 24)];
}

__attribute__((target("sse4.2")))
static inline uint32_t coolcal_crc32c_hardware3(uint32_t crc, const uint8_t *p, size_t n) {
    const size_t block = COOLCAL_CRC32C_BLOCK;
    if (n >= 3 * block) {
        const uint32_t *t = coolcal_crc32c_shift_tables();
        while (n >= 3 * block) {
            uint64_t a = crc, b = 0, c = 0;
            for (size_t i = 0; i < block; i += 8) {
                uint64_t x, y, z;
                memcpy(&x, p + i, 8);
                memcpy(&y, p + block + i, 8);
                memcpy(&z, p + 2 * block + i, 8);
                a = __builtin_ia32_crc32di(a, x);
                b = __builtin_ia32_crc32di(b, y);
                c = __builtin_ia32_crc32di(c, z);
            }
            crc = coolcal_crc32c_shift(t, coolcal_crc32c_shift(t, (uint32_t)a) ^ (uint32_t)b) ^ (uint32_t)c;
            p += 3 * block;
            n -= 3 * block;
        }
    }
    return coolcal_crc32c_hardware(crc, p, n);
}

/* 1 when the CPU has SSE 4.2 (CPUID leaf 1, ECX bit 20), 0 when not; asked once. */
static inline int coolcal_crc32c_has_hardware(void) {
    static int known = -1;
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k < 0) {
        unsigned a = 0, b = 0, c = 0, d = 0;
        k = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2) ? 1 : 0;
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k;
}
#endif

/* The CRC-32C of `n` bytes at `p` continued from `crc` (0 for the first bytes): the
   pre- and post-inversion are done here, so extending piece by piece gives the value of
   the whole. `software` forces the table (tests compare both ways). */
static inline uint32_t coolcal_crc32c_extend(uint32_t crc, const void *p, size_t n, int software) {
    uint32_t c = ~crc;
#if defined(__x86_64__)
    if (!software && coolcal_crc32c_has_hardware()) return ~coolcal_crc32c_hardware3(c, (const uint8_t *)p, n);
#endif
    return ~coolcal_crc32c_software(c, (const uint8_t *)p, n);
}

#endif
