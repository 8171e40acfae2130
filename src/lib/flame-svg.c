/*
 * Folded stacks to an interactive SVG.  (Being written.)
 */
#include "config.h"
#include "flame.h"

#include <string.h>

void
tr_svg_opts_init(struct tr_svg_opts *o)
{
	memset(o, 0, sizeof *o);
	o->title = "Flame Graph";
	o->width = 1200;
	o->frameheight = 16;
	o->minwidth = 0.1;
	o->colors = TR_COLORS_HOT;
	o->countname = "samples";
}

int
tr_flame_parse_colors(const char *s, enum tr_flame_colors *c)
{
	if (strcmp(s, "hot") == 0)
		*c = TR_COLORS_HOT;
	else if (strcmp(s, "mem") == 0)
		*c = TR_COLORS_MEM;
	else if (strcmp(s, "io") == 0)
		*c = TR_COLORS_IO;
	else if (strcmp(s, "java") == 0)
		*c = TR_COLORS_JAVA;
	else if (strcmp(s, "go") == 0)
		*c = TR_COLORS_GO;
	else
		return (-1);
	return (0);
}

int
tr_flame_write_svg(const struct tr_folded *f, const struct tr_svg_opts *o,
    FILE *fp, struct tr_error *err)
{
	(void)f;
	(void)o;
	(void)fp;
	return (tr_error_set(err, TR_EUSAGE, "not implemented"));
}
