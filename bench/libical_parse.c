/* Baseline for the coolcal benchmark: a bare libical whole-file parse.
 *
 *   libical_parse FILE          read FILE into memory, icalparser_parse_string, free, exit 0
 *   libical_parse --check FILE  also count X-LIC-ERROR properties (not part of the timing)
 *
 * Prints the number of VEVENTs (and, with --check, of parse errors) to stderr.
 * Build: cc -O2 bench/libical_parse.c $(pkg-config --cflags --libs libical) -o libical_parse
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_errors(icalcomponent *c) {
    int n = icalcomponent_count_properties(c, ICAL_XLICERROR_PROPERTY);
    for (icalcomponent *k = icalcomponent_get_first_component(c, ICAL_ANY_COMPONENT); k;
         k = icalcomponent_get_next_component(c, ICAL_ANY_COMPONENT))
        n += count_errors(k);
    return n;
}

int main(int argc, char **argv) {
    int check = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (argc != 2 + check) {
        fprintf(stderr, "usage: libical_parse [--check] FILE\n");
        return 64;
    }
    const char *path = argv[1 + check];
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 66; }
    if (fseek(f, 0, SEEK_END) != 0) { perror(path); return 74; }
    long size = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) { perror(path); return 74; }
    buf[size] = '\0';
    fclose(f);

    icalcomponent *cal = icalparser_parse_string(buf);
    free(buf);
    if (!cal) {
        fprintf(stderr, "libical_parse: %s: not parsed\n", path);
        return 65;
    }
    int events = icalcomponent_count_components(cal, ICAL_VEVENT_COMPONENT);
    if (check)
        fprintf(stderr, "%d VEVENTs, %d X-LIC-ERRORs\n", events, count_errors(cal));
    else
        fprintf(stderr, "%d VEVENTs\n", events);
    icalcomponent_free(cal);
    return 0;
}
