/*
 * pprof importer: profile.proto (perftools.profiles) as Go's runtime/pprof,
 * google/pprof and others write it, gzipped, zstd-compressed or raw.
 *
 * One profile row per file.  Every value of every sample becomes one
 * sample row whose event is the sample type's name, so a heap profile's
 * sample is four rows (alloc_objects, alloc_space, inuse_objects,
 * inuse_space), consecutive in id order.  Each Line of a location is a
 * frame of its own: inlined functions come first (innermost), flagged
 * inlined; a location without lines is the frame "[unknown]" with the
 * location's address and mapping file.  Every reference is checked before
 * use, and a bad one stops the import with the offset and index of the
 * element that holds it.
 */
#include "config.h"
#include "import/importer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.pb-c.h"
#include "base/util.h"
#include "store/writer.h"
#include "base/names.h"

#define PPROF_MAX	((size_t)1 << 30)	/* largest profile decoded */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

/* Decode a varint at p[*off], advancing *off.  0, or -1 if truncated. */
static int
get_varint(const unsigned char *p, size_t len, size_t *off, uint64_t *v)
{
	uint64_t	x = 0;
	unsigned	shift;
	size_t		i = *off;

	for (shift = 0; shift < 64; shift += 7) {
		if (i >= len)
			return (-1);
		x |= (uint64_t)(p[i] & 0x7f) << shift;
		if ((p[i++] & 0x80) == 0) {
			*off = i;
			*v = x;
			return (0);
		}
	}
	return (-1);
}

/*
 * Skip one field's payload of wire type 'wt' at p[*off].  Returns 0, -1
 * when the field runs past 'len', -2 for a wire type we do not accept.
 */
static int
skip_field(const unsigned char *p, size_t len, size_t *off, unsigned wt)
{
	uint64_t	v;

	switch (wt) {
	case WT_VARINT:
		return (get_varint(p, len, off, &v));
	case WT_I64:
		if (len - *off < 8)
			return (-1);
		*off += 8;
		return (0);
	case WT_LEN:
		if (get_varint(p, len, off, &v) != 0 || v > len - *off)
			return (-1);
		*off += (size_t)v;
		return (0);
	case WT_I32:
		if (len - *off < 4)
			return (-1);
		*off += 4;
		return (0);
	default:
		return (-2);
	}
}

/*
 * The wire types the known fields of each message may use, as a bit set
 * per field number (bit WT); 0 for a field number the message lacks.
 */
enum { M_PROFILE, M_VALUETYPE, M_SAMPLE, M_LABEL, M_MAPPING, M_LOCATION,
	M_LINE, M_FUNCTION };
#define V	(1u << WT_VARINT)
#define L	(1u << WT_LEN)
static const unsigned char msg_wt[][16] = {
	[M_PROFILE] = { 0, L, L, L, L, L, L, V, V, V, V, L, V, V | L, V },
	[M_VALUETYPE] = { 0, V, V },
	[M_SAMPLE] = { 0, V | L, V | L, L },
	[M_LABEL] = { 0, V, V, V, V },
	[M_MAPPING] = { 0, V, V, V, V, V, V, V, V, V, V },
	[M_LOCATION] = { 0, V, V, V, L, V },
	[M_LINE] = { 0, V, V, V },
	[M_FUNCTION] = { 0, V, V, V, V, V },
};
#undef V
#undef L

/* The message kind a Profile field holds, or -1 for a scalar. */
static int
profile_child(unsigned field)
{
	switch (field) {
	case 1:
	case 11:
		return (M_VALUETYPE);
	case 2:
		return (M_SAMPLE);
	case 3:
		return (M_MAPPING);
	case 4:
		return (M_LOCATION);
	case 5:
		return (M_FUNCTION);
	default:
		return (-1);
	}
}

/*
 * Is p[0..len) a plausible message of kind 'kind': every field of a known
 * number with an allowed wire type, nested messages likewise?  Unknown
 * field numbers are accepted when 'strict' is 0 (newer protos add fields).
 */
static int
plausible(const unsigned char *p, size_t len, int kind, int depth)
{
	size_t		off = 0, start;
	uint64_t	key, n;
	unsigned	field, wt;

	while (off < len) {
		if (get_varint(p, len, &off, &key) != 0)
			return (0);
		field = (unsigned)(key >> 3);
		wt = (unsigned)(key & 7);
		if (field == 0 || field >= 16 || msg_wt[kind][field] == 0 ||
		    (msg_wt[kind][field] & (1u << wt)) == 0)
			return (0);
		start = off;
		if (skip_field(p, len, &off, wt) != 0)
			return (0);
		if (wt == WT_LEN && depth < 2 && (kind == M_SAMPLE ||
		    kind == M_LOCATION) && (field == 3 || field == 4)) {
			/* Sample.label, Location.line */
			if (get_varint(p, len, &start, &n) != 0 ||
			    !plausible(p + start, (size_t)n, kind == M_SAMPLE ?
			    M_LABEL : M_LINE, depth + 1))
				return (0);
		}
	}
	return (1);
}

/*
 * Content probe: the top-level fields must be Profile fields (1..14) with
 * their wire types, and every nested message seen whole must be plausible
 * too.  Text formats fail within a few bytes (their first byte is a field
 * with a wrong wire type, a group, or a number above 14).
 */
static int
probe(const unsigned char *p, size_t len)
{
	size_t		off = 0, start;
	uint64_t	key, n;
	unsigned	field, wt;
	int		fields = 0, kind, rc;

	while (off < len) {
		if (get_varint(p, len, &off, &key) != 0)
			break;
		field = (unsigned)(key >> 3);
		wt = (unsigned)(key & 7);
		if (field == 0 || field > 14 ||
		    (msg_wt[M_PROFILE][field] & (1u << wt)) == 0)
			return (fields >= 3 ? 30 : 0);
		start = off;
		if ((rc = skip_field(p, len, &off, wt)) == -2)
			return (0);
		if (rc == -1)		/* runs past the peek window */
			break;
		if (wt == WT_LEN && (kind = profile_child(field)) >= 0) {
			if (get_varint(p, len, &start, &n) != 0 ||
			    !plausible(p + start, (size_t)n, kind, 0))
				return (0);
		}
		if (field == 6 && fields == 0 && p[start] != 0)
			return (0);	/* string_table[0] must be "" */
		fields++;
	}
	if (fields >= 2)
		return (85);
	return (fields == 1 && off == len && len >= 2 ? 40 : 0);
}

/*
 * No probe took these bytes, but are they a damaged profile?  Every
 * top-level field up to the end of what was peeked has a Profile field
 * number (1..14) and a wire type protobuf has, at least 3 of them and
 * three quarters are whole and plausible (their wire type right, their
 * nested messages plausible): one field or a few broken among good ones.
 * Text fails within a few bytes (groups, numbers above 14), as does
 * random data.
 */
static int
damaged(const unsigned char *p, size_t len)
{
	size_t		off = 0, start;
	uint64_t	key, n;
	unsigned	field, wt;
	int		good = 0, all = 0, kind, rc;

	while (off < len) {
		if (get_varint(p, len, &off, &key) != 0)
			break;
		field = (unsigned)(key >> 3);
		wt = (unsigned)(key & 7);
		if (field == 0 || field > 14)
			return (0);
		start = off;
		if ((rc = skip_field(p, len, &off, wt)) == -2)
			return (0);
		if (rc == -1)
			break;
		all++;
		if ((msg_wt[M_PROFILE][field] & (1u << wt)) == 0)
			continue;
		if (wt == WT_LEN && (kind = profile_child(field)) >= 0 &&
		    (get_varint(p, len, &start, &n) != 0 ||
		    !plausible(p + start, (size_t)n, kind, 0)))
			continue;
		good++;
	}
	return (good >= 3 && good * 4 >= all * 3);
}

/* --- decoding ------------------------------------------------------------- */

/* Byte offsets of the top-level fields, for messages. */
struct offsets {
	size_t	*v[15];		/* per field number, in order */
	size_t	 n[15];
	size_t	 cap[15];
};

static void
offsets_release(struct offsets *o)
{
	int	i;

	for (i = 0; i < 15; i++)
		free(o->v[i]);
}

static void
offsets_add(struct offsets *o, unsigned field, size_t off)
{
	if (o->n[field] == o->cap[field]) {
		o->cap[field] = o->cap[field] ? o->cap[field] * 2 : 64;
		o->v[field] = tr_xrealloc(o->v[field],
		    o->cap[field] * sizeof *o->v[field]);
	}
	o->v[field][o->n[field]++] = off;
}

/* The offset of occurrence 'i' of top-level field 'field' (0 if none). */
static int64_t
offset_of(const struct offsets *o, unsigned field, size_t i)
{
	if (i < o->n[field])
		return ((int64_t)o->v[field][i]);
	if (o->n[field] > 0)
		return ((int64_t)o->v[field][o->n[field] - 1]);
	return (0);
}

static const char *const field_names[15] = {
	NULL, "sample_type", "sample", "mapping", "location", "function",
	"string_table", "drop_frames", "keep_frames", "time_nanos",
	"duration_nanos", "period_type", "period", "comment",
	"default_sample_type"
};

/*
 * Walk the top-level fields, recording where each starts, and check the
 * wire structure so that a broken file gets the offset of its first bad
 * field.  Unknown field numbers are skipped, as protobuf requires.
 */
static int
scan(struct tr_input *in, const unsigned char *p, size_t len,
    struct offsets *o, struct tr_error *err)
{
	size_t		off = 0, at;
	uint64_t	key;
	unsigned	field, wt;
	int		rc;

	while (off < len) {
		at = off;
		if (get_varint(p, len, &off, &key) != 0)
			return (tr_input_error_at(in, err, (int64_t)at,
			    "truncated field key"));
		field = (unsigned)(key >> 3);
		wt = (unsigned)(key & 7);
		if (field == 0)
			return (tr_input_error_at(in, err, (int64_t)at,
			    "field number 0 is invalid"));
		if (field <= 14 &&
		    (msg_wt[M_PROFILE][field] & (1u << wt)) == 0)
			return (tr_input_error_at(in, err, (int64_t)at,
			    "field '%s' has wire type %u, expected %s",
			    field_names[field], wt,
			    msg_wt[M_PROFILE][field] & (1u << WT_LEN) ?
			    "length-delimited (2)" : "varint (0)"));
		if ((rc = skip_field(p, len, &off, wt)) == -2)
			return (tr_input_error_at(in, err, (int64_t)at,
			    "unsupported wire type %u (field %u)", wt, field));
		if (rc == -1)
			return (tr_input_error_at(in, err, (int64_t)at,
			    "truncated field '%s' (%zu bytes left)",
			    field <= 14 ? field_names[field] : "unknown",
			    len - at));
		if (field <= 14) {
			if (field == 9 && o->n[9] > 0)
				return (tr_input_error_at(in, err,
				    (int64_t)at, "a second time_nanos: "
				    "concatenated profiles are not supported"));
			offsets_add(o, field, at);
		}
	}
	return (0);
}

/* Unpack each nested message alone to find the one protobuf-c refused. */
static int
locate_bad(struct tr_input *in, const unsigned char *p, size_t len,
    const struct offsets *o, struct tr_error *err)
{
	static const unsigned fields[] = { 1, 2, 3, 4, 5, 11 };
	static const char *const what[] = { "sample type", "sample",
	    "mapping", "location", "function", "period type" };
	ProtobufCMessage	*m;
	size_t			 i, k, off;
	uint64_t		 key, n;

	for (k = 0; k < sizeof fields / sizeof fields[0]; k++) {
		for (i = 0; i < o->n[fields[k]]; i++) {
			off = o->v[fields[k]][i];
			if (get_varint(p, len, &off, &key) != 0 ||
			    get_varint(p, len, &off, &n) != 0)
				continue;
			m = NULL;
			switch (fields[k]) {
			case 1:
			case 11:
				m = (ProtobufCMessage *)
				    perftools__profiles__value_type__unpack(
				    NULL, (size_t)n, p + off);
				break;
			case 2:
				m = (ProtobufCMessage *)
				    perftools__profiles__sample__unpack(NULL,
				    (size_t)n, p + off);
				break;
			case 3:
				m = (ProtobufCMessage *)
				    perftools__profiles__mapping__unpack(NULL,
				    (size_t)n, p + off);
				break;
			case 4:
				m = (ProtobufCMessage *)
				    perftools__profiles__location__unpack(NULL,
				    (size_t)n, p + off);
				break;
			case 5:
				m = (ProtobufCMessage *)
				    perftools__profiles__function__unpack(NULL,
				    (size_t)n, p + off);
				break;
			}
			if (m == NULL)
				return (tr_input_error_at(in, err,
				    (int64_t)o->v[fields[k]][i],
				    "%s %zu: not a valid %s message (%" PRIu64
				    " bytes)", what[k], i, what[k], n));
			protobuf_c_message_free_unpacked(m, NULL);
		}
	}
	return (tr_input_error_at(in, err, 0, "not a valid pprof profile "
	    "(%zu bytes after decompression)", len));
}

/* --- validation ----------------------------------------------------------- */

/* From ids to indexes: direct when the ids are dense, else hashed. */
struct idmap {
	int64_t		*direct;	/* index + 1, 0 for none */
	uint64_t	 ndirect;
	struct tr_map	*hash;
};

static void
idmap_release(struct idmap *m)
{
	free(m->direct);
	tr_map_free(m->hash);
}

/* -1 if the id is absent. */
static int64_t
idmap_get(const struct idmap *m, uint64_t id)
{
	int64_t	v;

	if (m->direct != NULL)
		return (id < m->ndirect ? m->direct[id] - 1 : -1);
	if (tr_map_get(m->hash, &id, sizeof id, &v))
		return (v);
	return (-1);
}

struct pprof {
	struct tr_import		*ctx;
	struct tr_writer		*wr;		/* its writer */
	struct tr_input			*in;
	const unsigned char		*buf;
	size_t				 len;
	struct offsets			 off;
	Perftools__Profiles__Profile	*pb;
	struct idmap			 maps, funcs, locs;
	/* Per mapping: the file pprof shows (adjacent mappings merged). */
	const char			**mapfile;
	/* Per location: frame ids, innermost first. */
	int64_t				**locframes;
	size_t				 *nlocframes;
	int64_t				 *events;	/* per type */
	/* Sample types, or those inferred for a profile without any. */
	const char			**stype, **sunit;
	size_t				 ntypes;
};

static int
bad_string(struct pprof *pp, struct tr_error *err, unsigned field, size_t i,
    const char *what, int64_t idx)
{
	return (tr_input_error_at(pp->in, err, offset_of(&pp->off, field, i),
	    "%s: string index %" PRId64 " out of range (the string table has "
	    "%zu entries)", what, idx, pp->pb->n_string_table));
}

/* String 'idx', or NULL when out of range.  Index 0 is always "". */
static const char *
str(const struct pprof *pp, int64_t idx)
{
	if (idx == 0)
		return ("");
	if (idx < 0 || (uint64_t)idx >= pp->pb->n_string_table)
		return (NULL);
	return (pp->pb->string_table[idx]);
}

#define CHECK_STR(pp, err, field, i, idx, ...) do {			\
	if (str((pp), (idx)) == NULL) {					\
		char	what_[128];					\
		snprintf(what_, sizeof what_, __VA_ARGS__);		\
		return (bad_string((pp), (err), (field), (i), what_,	\
		    (idx)));						\
	}								\
} while (0)

/*
 * Build an id map over 'n' ids read by 'get'.  Returns the index of the
 * first id that is 0 or repeated (with *dup set for a repeat), or -1.
 */
static int64_t
idmap_build(struct idmap *m, size_t n, uint64_t (*get)(const void *, size_t),
    const void *arr, int *dup)
{
	uint64_t	max = 0, id;
	int64_t		v;
	size_t		i;

	*dup = 0;
	for (i = 0; i < n; i++)
		if ((id = get(arr, i)) > max)
			max = id;
	if (max <= 2 * (uint64_t)n + 64) {
		m->ndirect = max + 1;
		m->direct = tr_xcalloc((size_t)m->ndirect, sizeof *m->direct);
	} else
		m->hash = tr_map_new();
	for (i = 0; i < n; i++) {
		id = get(arr, i);
		if (id == 0)
			return ((int64_t)i);
		if (idmap_get(m, id) >= 0) {
			*dup = 1;
			return ((int64_t)i);
		}
		v = (int64_t)i;
		if (m->direct != NULL)
			m->direct[id] = v + 1;
		else
			tr_map_put(m->hash, &id, sizeof id, v);
	}
	return (-1);
}

static uint64_t
map_id(const void *a, size_t i)
{
	return (((Perftools__Profiles__Mapping *const *)a)[i]->id);
}

static uint64_t
func_id(const void *a, size_t i)
{
	return (((Perftools__Profiles__Function *const *)a)[i]->id);
}

static uint64_t
loc_id(const void *a, size_t i)
{
	return (((Perftools__Profiles__Location *const *)a)[i]->id);
}

static int
check_ids(struct pprof *pp, struct idmap *m, size_t n,
    uint64_t (*get)(const void *, size_t), const void *arr, unsigned field,
    const char *what, struct tr_error *err)
{
	int64_t	i;
	int	dup;

	if ((i = idmap_build(m, n, get, arr, &dup)) < 0)
		return (0);
	if (dup)
		return (tr_input_error_at(pp->in, err,
		    offset_of(&pp->off, field, (size_t)i), "%s %" PRId64
		    ": id %" PRIu64 " is already the id of %s %" PRId64, what,
		    i, get(arr, (size_t)i), what, idmap_get(m,
		    get(arr, (size_t)i))));
	return (tr_input_error_at(pp->in, err,
	    offset_of(&pp->off, field, (size_t)i), "%s %" PRId64 ": id 0 is "
	    "reserved", what, i));
}

/*
 * The sample types.  A profile without any whose samples all have one
 * value (or two) is taken as a legacy profile: its one value is of the
 * period type ("samples"/"count" without one), its two values are
 * samples/count and the period type, as pprof's legacy converters write.
 * Called after the string indexes of the types are checked.
 */
static void
sample_types(struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const char				*pt = "samples";
	const char				*pu = "count";
	size_t					 i, nv;

	pp->stype = tr_xcalloc(pb->n_sample_type + 2, sizeof *pp->stype);
	pp->sunit = tr_xcalloc(pb->n_sample_type + 2, sizeof *pp->sunit);
	for (i = 0; i < pb->n_sample_type; i++) {
		pp->stype[i] = str(pp, pb->sample_type[i]->type);
		pp->sunit[i] = str(pp, pb->sample_type[i]->unit);
	}
	pp->ntypes = pb->n_sample_type;
	if (pb->n_sample_type > 0 || pb->n_sample == 0)
		return;
	nv = pb->sample[0]->n_value;
	for (i = 1; i < pb->n_sample; i++)
		if (pb->sample[i]->n_value != nv)
			return;
	if (pb->period_type != NULL && *str(pp, pb->period_type->type)) {
		pt = str(pp, pb->period_type->type);
		pu = str(pp, pb->period_type->unit);
	}
	if (nv == 1) {
		pp->stype[0] = pt;
		pp->sunit[0] = pu;
	} else if (nv == 2) {
		pp->stype[0] = "samples";
		pp->sunit[0] = "count";
		pp->stype[1] = pt;
		pp->sunit[1] = pu;
	} else
		return;
	pp->ntypes = nv;
}

/* Every reference and string index, before anything is used. */
static int
validate(struct pprof *pp, struct tr_error *err)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	size_t					 i, j;

	if (pb->n_string_table > 0 && pb->string_table[0][0] != '\0')
		return (tr_input_error_at(pp->in, err,
		    offset_of(&pp->off, 6, 0), "string table entry 0 must be "
		    "empty, found '%.40s'", pb->string_table[0]));
	for (i = 0; i < pb->n_sample_type; i++) {
		CHECK_STR(pp, err, 1, i, pb->sample_type[i]->type,
		    "sample type %zu: type", i);
		CHECK_STR(pp, err, 1, i, pb->sample_type[i]->unit,
		    "sample type %zu: unit", i);
	}
	if (pb->period_type != NULL) {
		CHECK_STR(pp, err, 11, 0, pb->period_type->type,
		    "period type");
		CHECK_STR(pp, err, 11, 0, pb->period_type->unit,
		    "period type unit");
	}
	CHECK_STR(pp, err, 7, 0, pb->drop_frames, "drop_frames");
	CHECK_STR(pp, err, 8, 0, pb->keep_frames, "keep_frames");
	CHECK_STR(pp, err, 14, 0, pb->default_sample_type,
	    "default_sample_type");
	for (i = 0; i < pb->n_comment; i++)
		CHECK_STR(pp, err, 13, i, pb->comment[i], "comment %zu", i);

	sample_types(pp);
	if (check_ids(pp, &pp->maps, pb->n_mapping, map_id, pb->mapping, 3,
	    "mapping", err) != 0 ||
	    check_ids(pp, &pp->funcs, pb->n_function, func_id, pb->function,
	    5, "function", err) != 0 ||
	    check_ids(pp, &pp->locs, pb->n_location, loc_id, pb->location, 4,
	    "location", err) != 0)
		return (-1);
	for (i = 0; i < pb->n_mapping; i++) {
		CHECK_STR(pp, err, 3, i, pb->mapping[i]->filename,
		    "mapping %zu: file name", i);
		CHECK_STR(pp, err, 3, i, pb->mapping[i]->build_id,
		    "mapping %zu: build id", i);
	}
	for (i = 0; i < pb->n_function; i++) {
		const Perftools__Profiles__Function	*f = pb->function[i];

		CHECK_STR(pp, err, 5, i, f->name, "function %zu: name", i);
		CHECK_STR(pp, err, 5, i, f->system_name,
		    "function %zu: system name", i);
		CHECK_STR(pp, err, 5, i, f->filename,
		    "function %zu: file name", i);
	}
	for (i = 0; i < pb->n_location; i++) {
		const Perftools__Profiles__Location	*l = pb->location[i];

		if (l->mapping_id != 0 &&
		    idmap_get(&pp->maps, l->mapping_id) < 0)
			return (tr_input_error_at(pp->in, err,
			    offset_of(&pp->off, 4, i), "location %zu (id %"
			    PRIu64 "): mapping id %" PRIu64 " does not exist",
			    i, l->id, l->mapping_id));
		for (j = 0; j < l->n_line; j++)
			if (idmap_get(&pp->funcs, l->line[j]->function_id) <
			    0)
				return (tr_input_error_at(pp->in, err,
				    offset_of(&pp->off, 4, i), "location %zu "
				    "(id %" PRIu64 "): line %zu: function id %"
				    PRIu64 " does not exist", i, l->id, j,
				    l->line[j]->function_id));
	}
	for (i = 0; i < pb->n_sample; i++) {
		const Perftools__Profiles__Sample	*s = pb->sample[i];

		if (s->n_value != pp->ntypes)
			return (tr_input_error_at(pp->in, err,
			    offset_of(&pp->off, 2, i), "sample %zu: expected "
			    "%zu values (one per sample type), found %zu", i,
			    pp->ntypes, s->n_value));
		for (j = 0; j < s->n_location_id; j++)
			if (idmap_get(&pp->locs, s->location_id[j]) < 0)
				return (tr_input_error_at(pp->in, err,
				    offset_of(&pp->off, 2, i), "sample %zu: "
				    "location id %" PRIu64 " does not exist",
				    i, s->location_id[j]));
		for (j = 0; j < s->n_label; j++) {
			const Perftools__Profiles__Label *lb = s->label[j];

			CHECK_STR(pp, err, 2, i, lb->key,
			    "sample %zu: label %zu: key", i, j);
			CHECK_STR(pp, err, 2, i, lb->str,
			    "sample %zu: label %zu: value", i, j);
			CHECK_STR(pp, err, 2, i, lb->num_unit,
			    "sample %zu: label %zu: unit", i, j);
		}
	}
	return (0);
}

/* --- storing -------------------------------------------------------------- */

/*
 * The file name pprof shows for each mapping: like pprof's
 * massageMappings(), adjacent mappings (same file and build id where both
 * are set, contiguous, consistent offsets) merge, and the merged one takes
 * the last non-empty file name of its run.
 */
static void
mapping_files(struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const char				*lfile = "", *lbuild = "";
	const char				*file, *build;
	uint64_t				 lstart = 0, llimit = 0;
	uint64_t				 loff = 0;
	size_t					 i, j, first = 0;

	pp->mapfile = tr_xcalloc(pb->n_mapping + 1, sizeof *pp->mapfile);
	for (i = 0; i < pb->n_mapping; i++) {
		const Perftools__Profiles__Mapping	*m = pb->mapping[i];
		int					 adj = i > 0;

		file = str(pp, m->filename);
		build = str(pp, m->build_id);
		if (adj && *lfile && *file && strcmp(lfile, file) != 0)
			adj = 0;
		if (adj && *lbuild && *build && strcmp(lbuild, build) != 0)
			adj = 0;
		if (adj && llimit != m->memory_start)
			adj = 0;
		if (adj && loff != 0 && m->file_offset != 0 &&
		    loff + (llimit - lstart) != m->file_offset)
			adj = 0;
		if (adj) {
			llimit = m->memory_limit;
			if (*file)
				lfile = file;
			if (*build)
				lbuild = build;
		} else {
			for (j = first; j < i; j++)
				pp->mapfile[j] = lfile;
			first = i;
			lfile = file;
			lbuild = build;
			lstart = m->memory_start;
			llimit = m->memory_limit;
			loff = m->file_offset;
		}
	}
	for (j = first; j < pb->n_mapping; j++)
		pp->mapfile[j] = lfile;
}

/* Frames of every location, innermost first. */
static int
add_locations(struct pprof *pp, struct tr_error *err)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	struct tr_frame				 fr;
	size_t					 i, j, n;
	int64_t					 mi;

	pp->locframes = tr_xcalloc(pb->n_location + 1,
	    sizeof *pp->locframes);
	pp->nlocframes = tr_xcalloc(pb->n_location + 1,
	    sizeof *pp->nlocframes);
	for (i = 0; i < pb->n_location; i++) {
		const Perftools__Profiles__Location	*l = pb->location[i];
		const char				*mod = "";

		if (l->mapping_id != 0 &&
		    (mi = idmap_get(&pp->maps, l->mapping_id)) >= 0)
			mod = pp->mapfile[mi];
		n = l->n_line > 0 ? l->n_line : 1;
		pp->locframes[i] = tr_xcalloc(n, sizeof **pp->locframes);
		pp->nlocframes[i] = n;
		for (j = 0; j < n; j++) {
			memset(&fr, 0, sizeof fr);
			fr.module = mod;
			fr.module_len = strlen(mod);
			fr.addr = l->address;
			if (l->n_line == 0) {
				fr.name = "[unknown]";
			} else {
				const Perftools__Profiles__Function *f =
				    pb->function[idmap_get(&pp->funcs,
				    l->line[j]->function_id)];

				fr.name = str(pp, f->name);
				fr.file = str(pp, f->filename);
				fr.file_len = strlen(fr.file);
				fr.line = l->line[j]->line;
				fr.inlined = j + 1 < n;
			}
			fr.name_len = strlen(fr.name);
			if ((pp->locframes[i][j] = tr_writer_add_frame(pp->wr,
			    &fr, err)) < 0)
				return (-1);
		}
	}
	return (0);
}

/* Put 'v' under 'key' in 'obj', turning a repeated key into an array. */
static void
label_put(json_t *obj, const char *key, json_t *v)
{
	json_t	*old = json_object_get(obj, key), *arr;

	if (old == NULL) {
		json_object_set_new(obj, key, v);
	} else if (json_is_array(old)) {
		json_array_append_new(old, v);
	} else {
		arr = json_array();
		json_array_append(arr, old);
		json_array_append_new(arr, v);
		json_object_set_new(obj, key, arr);
	}
}

/*
 * The labels of a sample as a JSON object (keys sorted, a repeated key's
 * values in a list), or NULL for none.  As in pprof, a label with a
 * string is a string label, one with a number or a unit a numeric label,
 * and one with neither is ignored.  Units go to the profile's meta
 * ('units').
 */
static char *
labels_json(struct pprof *pp, const Perftools__Profiles__Sample *s,
    json_t *units)
{
	json_t	*obj;
	char	*text;
	size_t	 j;

	if (s->n_label == 0)
		return (NULL);
	obj = json_object();
	for (j = 0; j < s->n_label; j++) {
		const Perftools__Profiles__Label	*lb = s->label[j];
		const char *key = str(pp, lb->key);

		if (lb->str != 0)
			label_put(obj, key, json_string(str(pp, lb->str)));
		else if (lb->num != 0 || lb->num_unit != 0) {
			label_put(obj, key, json_integer(lb->num));
			if (lb->num_unit != 0 &&
			    json_object_get(units, key) == NULL)
				json_object_set_new(units, key,
				    json_string(str(pp, lb->num_unit)));
		}
	}
	if (json_object_size(obj) == 0) {
		json_decref(obj);
		return (NULL);
	}
	/* Sorted keys: Go writes a sample's labels in map order. */
	text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(obj);
	return (text);
}

static int
has_type(const struct pprof *pp, const char *name)
{
	size_t	i;

	for (i = 0; i < pp->ntypes; i++)
		if (strcmp(pp->stype[i], name) == 0)
			return (1);
	return (0);
}

/* The innermost function of sample 'i', or "". */
static const char *
leaf_name(const struct pprof *pp, size_t i)
{
	const Perftools__Profiles__Sample	*s = pp->pb->sample[i];
	const Perftools__Profiles__Location	*l;

	if (s->n_location_id == 0)
		return ("");
	l = pp->pb->location[idmap_get(&pp->locs, s->location_id[0])];
	if (l->n_line == 0)
		return ("");
	return (str(pp, pp->pb->function[idmap_get(&pp->funcs,
	    l->line[0]->function_id)]->name));
}

/*
 * Go's mutex profile records contention where the lock is released; its
 * block profile where a goroutine blocks.  Both have the same sample
 * types, so the leaves tell them apart.
 */
static int
is_unlock(const char *name)
{
	static const char *const unlocks[] = {
		"sync.(*Mutex).Unlock", "sync.(*RWMutex).Unlock",
		"sync.(*RWMutex).RUnlock", "runtime.unlock",
		"runtime._LostContendedRuntimeLock", NULL
	};
	size_t	i;

	for (i = 0; unlocks[i] != NULL; i++)
		if (strcmp(name, unlocks[i]) == 0)
			return (1);
	return (0);
}

/*
 * The profile type, from the sample types and period type the way Go
 * writes them: cpu (samples, cpu), heap and allocs (alloc_*, inuse_*;
 * allocs has default sample type alloc_space), block and mutex
 * (contentions, delay), goroutine, threadcreate; anything else is "other".
 */
static const char *
profile_type(const struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const char				*pt = "", *dst;
	const char				*name;
	size_t					 i, unlock = 0, n = 0;

	if (pb->period_type != NULL)
		pt = str(pp, pb->period_type->type);
	dst = str(pp, pb->default_sample_type);
	if (has_type(pp, "cpu") || (pp->ntypes == 0 &&
	    strcmp(pt, "cpu") == 0))
		return (TR_PROFILE_CPU);
	if (has_type(pp, "inuse_space") || has_type(pp, "inuse_objects"))
		return (strncmp(dst, "alloc_", 6) == 0 ? TR_PROFILE_ALLOCS :
		    TR_PROFILE_HEAP);
	if (has_type(pp, "alloc_space") || has_type(pp, "alloc_objects"))
		return (TR_PROFILE_ALLOCS);
	if (has_type(pp, "contentions") || has_type(pp, "delay")) {
		for (i = 0; i < pb->n_sample; i++) {
			name = leaf_name(pp, i);
			n++;
			unlock += is_unlock(name);
		}
		if (n > 0)
			return (unlock == n ? TR_PROFILE_MUTEX :
			    TR_PROFILE_BLOCK);
		name = tr_import_name(pp->ctx);
		return (strstr(name, "mutex") != NULL ? TR_PROFILE_MUTEX :
		    TR_PROFILE_BLOCK);
	}
	if (has_type(pp, "goroutine"))
		return (TR_PROFILE_GOROUTINE);
	if (has_type(pp, "threadcreate"))
		return (TR_PROFILE_THREADCREATE);
	return (TR_PROFILE_OTHER);
}

/* Mappings, comments, drop/keep frames and unusual functions. */
static json_t *
profile_meta(const struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	json_t					*meta = json_object(), *a;
	size_t					 i;

	a = json_array();
	for (i = 0; i < pb->n_mapping; i++) {
		const Perftools__Profiles__Mapping	*m = pb->mapping[i];

		json_array_append_new(a, json_pack("{s:I,s:I,s:I,s:I,s:s,"
		    "s:s,s:b,s:b,s:b,s:b}", "id", (json_int_t)m->id,
		    "start", (json_int_t)m->memory_start,
		    "limit", (json_int_t)m->memory_limit,
		    "offset", (json_int_t)m->file_offset,
		    "file", str(pp, m->filename),
		    "build_id", str(pp, m->build_id),
		    "has_functions", (int)m->has_functions,
		    "has_filenames", (int)m->has_filenames,
		    "has_line_numbers", (int)m->has_line_numbers,
		    "has_inline_frames", (int)m->has_inline_frames));
	}
	json_object_set_new(meta, "mappings", a);
	if (pb->n_comment > 0) {
		a = json_array();
		for (i = 0; i < pb->n_comment; i++)
			json_array_append_new(a,
			    json_string(str(pp, pb->comment[i])));
		json_object_set_new(meta, "comments", a);
	}
	if (pb->drop_frames != 0)
		json_object_set_new(meta, "drop_frames",
		    json_string(str(pp, pb->drop_frames)));
	if (pb->keep_frames != 0)
		json_object_set_new(meta, "keep_frames",
		    json_string(str(pp, pb->keep_frames)));
	/*
	 * Frames keep name, file and line; a function's system name and
	 * start line are kept here when they say more than that.
	 */
	a = json_array();
	for (i = 0; i < pb->n_function; i++) {
		const Perftools__Profiles__Function	*f = pb->function[i];

		if (f->start_line == 0 && (f->system_name == f->name ||
		    strcmp(str(pp, f->system_name), str(pp, f->name)) == 0))
			continue;
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:I}",
		    "name", str(pp, f->name),
		    "system_name", str(pp, f->system_name),
		    "file", str(pp, f->filename),
		    "start_line", (json_int_t)f->start_line));
	}
	if (json_array_size(a) > 0)
		json_object_set_new(meta, "functions", a);
	else
		json_decref(a);
	json_object_set_new(meta, "samples", json_integer((json_int_t)
	    pb->n_sample));
	json_object_set_new(meta, "locations", json_integer((json_int_t)
	    pb->n_location));
	return (meta);
}

static char *
dump(json_t *j)
{
	char	*s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	return (s);
}

static int
store(struct pprof *pp, struct tr_error *err)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	struct tr_sample			 smp;
	json_t					*meta, *units, *st;
	char					*meta_s = NULL;
	char					*st_s = NULL;
	char					*labels = NULL;
	const char				*dst = NULL, *type;
	int64_t					*stack = NULL, pid;
	size_t					 cap = 0, n, i, j, k;
	int					 rc = -1;

	tr_import_set_clock(pp->ctx, "wall");
	mapping_files(pp);
	if (add_locations(pp, err) != 0)
		return (-1);
	type = profile_type(pp);
	pp->events = tr_xcalloc(pp->ntypes + 1, sizeof *pp->events);
	st = json_array();
	for (i = 0; i < pp->ntypes; i++) {
		const char	*t = pp->stype[i];

		json_array_append_new(st, json_pack("{s:s,s:s}", "type", t,
		    "unit", pp->sunit[i]));
		if ((pp->events[i] = tr_writer_add_str(pp->wr, t, strlen(t),
		    err)) < 0) {
			json_decref(st);
			return (-1);
		}
	}
	st_s = dump(st);
	if (pb->default_sample_type != 0)
		dst = str(pp, pb->default_sample_type);
	meta = profile_meta(pp);
	units = json_object();

	/* The profile row first: samples refer to it. */
	meta_s = json_dumps(meta, JSON_COMPACT);
	pid = tr_writer_add_profile(pp->wr, type, pb->time_nanos,
	    pb->duration_nanos, pb->period, pb->period_type ?
	    str(pp, pb->period_type->type) : NULL, pb->period_type ?
	    str(pp, pb->period_type->unit) : NULL, st_s, dst, meta_s, err);
	if (pid < 0)
		goto out;
	memset(&smp, 0, sizeof smp);
	smp.cpu = -1;
	smp.profile_id = pid;
	for (i = 0; i < pb->n_sample; i++) {
		const Perftools__Profiles__Sample	*s = pb->sample[i];

		n = 0;
		for (j = s->n_location_id; j-- > 0;) {
			int64_t	li;

			li = idmap_get(&pp->locs, s->location_id[j]);

			for (k = pp->nlocframes[li]; k-- > 0;) {
				if (n == cap) {
					cap = cap ? cap * 2 : 64;
					stack = tr_xrealloc(stack,
					    cap * sizeof *stack);
				}
				stack[n++] = pp->locframes[li][k];
			}
		}
		if ((smp.callsite_id = tr_writer_add_stack(pp->wr, stack, n,
		    err)) < 0)
			goto out;
		labels = labels_json(pp, s, units);
		smp.labels = labels;
		for (j = 0; j < s->n_value; j++) {
			smp.event_id = pp->events[j];
			smp.value = s->value[j];
			if (tr_writer_add_sample(pp->wr, &smp, err) < 0)
				goto out;
		}
		free(labels);
		labels = NULL;
	}
	if (json_object_size(units) > 0) {
		/* Units are known only now: rewrite the profile's meta. */
		sqlite3_stmt	*u;

		json_object_set(meta, "units", units);
		free(meta_s);
		meta_s = json_dumps(meta, JSON_COMPACT);
		if ((u = tr_db_prepare(tr_import_db(pp->ctx),
		    "UPDATE profile SET meta = ?1 WHERE id = ?2", err)) == NULL)
			goto out;
		sqlite3_bind_text(u, 1, meta_s, -1, SQLITE_STATIC);
		sqlite3_bind_int64(u, 2, pid);
		if (sqlite3_step(u) != SQLITE_DONE) {
			sqlite3_finalize(u);
			tr_db_error(tr_import_db(pp->ctx), err,
			    "cannot write to store");
			goto out;
		}
		sqlite3_finalize(u);
	}
	json_object_set_new(tr_import_meta(pp->ctx), "profile_type",
	    json_string(type));
	rc = 0;
out:
	free(labels);
	free(stack);
	free(meta_s);
	free(st_s);
	json_decref(meta);
	json_decref(units);
	return (rc);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct pprof	pp;
	unsigned char	*buf = NULL;
	size_t		 len = 0, i;
	int		 rc = -1;

	memset(&pp, 0, sizeof pp);
	pp.ctx = ctx;
	pp.wr = tr_import_writer(ctx);
	pp.in = in;
	if (tr_input_slurp(in, PPROF_MAX, &buf, &len, err) != 0)
		return (-1);
	pp.buf = buf;
	pp.len = len;
	if (len == 0) {
		tr_input_error_at(in, err, 0, "empty input: not a pprof "
		    "profile");
		goto out;
	}
	if (scan(in, buf, len, &pp.off, err) != 0)
		goto out;
	if ((pp.pb = perftools__profiles__profile__unpack(NULL, len,
	    buf)) == NULL) {
		locate_bad(in, buf, len, &pp.off, err);
		goto out;
	}
	if (validate(&pp, err) != 0)
		goto out;
	rc = store(&pp, err);
out:
	if (pp.locframes != NULL)
		for (i = 0; i < pp.pb->n_location; i++)
			free(pp.locframes[i]);
	free(pp.locframes);
	free(pp.nlocframes);
	free(pp.mapfile);
	free(pp.events);
	free(pp.stype);
	free(pp.sunit);
	idmap_release(&pp.maps);
	idmap_release(&pp.funcs);
	idmap_release(&pp.locs);
	offsets_release(&pp.off);
	if (pp.pb != NULL)
		perftools__profiles__profile__free_unpacked(pp.pb, NULL);
	free(buf);
	return (rc);
}

const struct tr_importer tr_importer_pprof = {
	.name = "pprof",
	.summary = "pprof profile.proto (Go runtime/pprof, every type)",
	.probe = probe,
	.run = run,
	.damaged = damaged,
	.writer_thread = 1,
};
