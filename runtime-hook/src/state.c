// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OCI state (stdin) and the bundle's config.json.
 *
 * Only the members the hook uses are read, each with its type and size
 * checked; anything else in the documents is ignored.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "lsmns_hook.h"

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

int state_parse(const char *buf, size_t len, struct oci_state *st,
		struct hook_err *err)
{
	static const char what[] = "OCI state";
	struct json_object *root, *v, *ann;
	int64_t pid;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (json_parse_buffer(buf, len, "OCI state on stdin", &root,
			      HOOK_ERR_INPUT, err))
		return -1;

	if (json_get_str(root, "id", true, HOOK_MAX_ID_LEN, what, &st->id,
			 HOOK_ERR_INPUT, err) < 0)
		goto out;
	if (!st->id[0] || has_control(st->id)) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: \"id\" is empty or has control characters");
		goto out;
	}

	if (json_get_str(root, "status", true, 64, what, &st->status,
			 HOOK_ERR_INPUT, err) < 0)
		goto out;
	if (strcmp(st->status, "created") && strcmp(st->status, "creating")) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: status \"%.64s\" is not \"creating\" or \"created\" (run lsmns-hook as a createRuntime hook)",
			  st->status);
		goto out;
	}

	if (!json_object_object_get_ex(root, "pid", &v)) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: missing \"pid\" (run lsmns-hook as a createRuntime hook)");
		goto out;
	}
	if (!json_object_is_type(v, json_type_int)) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: \"pid\" must be an integer, not %s",
			  json_type_str(v));
		goto out;
	}
	pid = json_object_get_int64(v);
	if (pid == 0) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: pid is 0 (crun sends 0 to createContainer/startContainer hooks; run lsmns-hook as a createRuntime hook)");
		goto out;
	}
	if (pid < 0 || pid > INT_MAX) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: pid %.32s is out of range",
			  json_object_get_string(v));
		goto out;
	}
	st->pid = (int)pid;

	if (json_get_str(root, "bundle", true, HOOK_MAX_PATH_LEN, what,
			 &st->bundle, HOOK_ERR_INPUT, err) < 0)
		goto out;
	if (st->bundle[0] != '/' || has_control(st->bundle)) {
		hook_fail(err, HOOK_ERR_INPUT,
			  "OCI state: \"bundle\" must be an absolute path");
		goto out;
	}

	switch (json_get_obj(root, "annotations", false, what, &ann,
			     HOOK_ERR_INPUT, err)) {
	case -1:
		goto out;
	case 1:
		st->has_annotations = true;
		if (json_to_kv(ann, HOOK_MAX_ANNOTATIONS_SIZE, "OCI state annotations",
			       &st->annotations, HOOK_ERR_INPUT, err))
			goto out;
		break;
	}
	ret = 0;
out:
	json_done(root);
	if (ret)
		state_free(st);
	return ret;
}

void state_free(struct oci_state *st)
{
	free(st->id);
	free(st->status);
	free(st->bundle);
	kv_list_free(&st->annotations);
	memset(st, 0, sizeof(*st));
}

/* process.selinuxLabel / apparmorProfile: "" means unset, as in runtimes. */
static int get_label(struct json_object *process, const char *key,
		     char **out, struct hook_err *err)
{
	char what[64];
	int r;

	snprintf(what, sizeof(what), "config.json process");
	r = json_get_str(process, key, false, HOOK_MAX_CTX_LEN, what, out,
			 HOOK_ERR_INPUT, err);
	if (r < 0)
		return -1;
	if (*out && !(*out)[0]) {
		free(*out);
		*out = NULL;
	}
	if (*out && has_control(*out))
		return hook_fail(err, HOOK_ERR_INPUT,
				 "config.json: process.%s has control characters",
				 key);
	return 0;
}

int config_parse(const char *buf, size_t len, const char *bundle,
		 struct oci_config *cfg, struct hook_err *err)
{
	struct json_object *root, *process, *rootfs, *ann;
	char *path = NULL;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	if (json_parse_buffer(buf, len, "config.json", &root, HOOK_ERR_INPUT,
			      err))
		return -1;

	if (json_get_obj(root, "process", false, "config.json", &process,
			 HOOK_ERR_INPUT, err) < 0)
		goto out;
	if (process) {
		if (get_label(process, "selinuxLabel", &cfg->selinux_label, err))
			goto out;
		if (get_label(process, "apparmorProfile",
			      &cfg->apparmor_profile, err))
			goto out;
	}

	if (json_get_obj(root, "root", false, "config.json", &rootfs,
			 HOOK_ERR_INPUT, err) < 0)
		goto out;
	if (rootfs && json_get_str(rootfs, "path", false, HOOK_MAX_PATH_LEN,
				   "config.json root", &path, HOOK_ERR_INPUT,
				   err) < 0)
		goto out;
	if (path && path[0] && path[0] != '/' && bundle) {
		size_t n = strlen(bundle) + 1 + strlen(path) + 1;

		cfg->root_path = malloc(n);
		if (!cfg->root_path) {
			hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
			goto out;
		}
		snprintf(cfg->root_path, n, "%s/%s", bundle, path);
	} else {
		cfg->root_path = path;
		path = NULL;
	}

	switch (json_get_obj(root, "annotations", false, "config.json", &ann,
			     HOOK_ERR_INPUT, err)) {
	case -1:
		goto out;
	case 1:
		cfg->has_annotations = true;
		if (json_to_kv(ann, HOOK_MAX_ANNOTATIONS_SIZE, "config.json annotations",
			       &cfg->annotations, HOOK_ERR_INPUT, err))
			goto out;
		break;
	}
	ret = 0;
out:
	free(path);
	json_done(root);
	if (ret)
		config_free(cfg);
	return ret;
}

void config_free(struct oci_config *cfg)
{
	free(cfg->selinux_label);
	free(cfg->apparmor_profile);
	free(cfg->root_path);
	kv_list_free(&cfg->annotations);
	memset(cfg, 0, sizeof(*cfg));
}

const struct kv_list *request_annotations(const struct oci_state *st,
					  const struct oci_config *cfg)
{
	if (st && st->has_annotations)
		return &st->annotations;
	if (cfg && cfg->has_annotations)
		return &cfg->annotations;
	return NULL;
}
