/*
 * model_role.c - what a traced tensor is in training: a weight, a gradient
 * or an activation, from its op's type and name only.
 *
 * One neutral rule set, the same for every dump: frameworks name these
 * things alike (variables and parameters and their reads; gradient scopes
 * and `*_grad` names; the outputs of activation ops).  Gradient rules come
 * first: the gradient of an activation is a gradient.  Not for: anything
 * that needs values or the graph's edges (a matmul's output is nothing
 * here even when it feeds a weight update).
 */
#include "model.h"

#include <string.h>
#include <strings.h>

static const char *const role_names[] = {
	[ROLE_NONE] = "", [ROLE_WEIGHT] = "weight", [ROLE_GRADIENT] = "gradient",
	[ROLE_ACTIVATION] = "activation",
};

const char *
model_role_name(enum model_role r)
{
	return (unsigned)r < TD_ARRAY_SIZE(role_names) ? role_names[r] : "";
}

static bool
in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcasecmp(s, *list) == 0)
			return true;
	return false;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A path component of name starts with prefix ("gradients", "Gradients"). */
static bool
has_scope(const char *name, const char *prefix)
{
	size_t k = strlen(prefix);
	const char *p = name;

	for (;;) {
		if (strncmp(p, prefix, k) == 0 && (p[k] == '/' || p[k] == '_' || !p[k]))
			return true;
		if (!(p = strchr(p, '/')))
			return false;
		p++;
	}
}

/* A dot-separated component of name is word ("f.linear.0.backward"). */
static bool
has_part(const char *name, const char *word)
{
	size_t k = strlen(word);
	const char *p = name;

	for (;;) {
		if (strncmp(p, word, k) == 0 && (p[k] == '.' || !p[k]))
			return true;
		if (!(p = strchr(p, '.')))
			return false;
		p++;
	}
}

static bool
is_gradient(const char *name, const char *type)
{
	size_t n = strlen(type);

	if (has_scope(name, "gradients") || has_scope(name, "Gradients") ||
	    strstr(name, "_grad/") || ends_with(name, "_grad"))
		return true;
	/* dotted call names: a backward call, a parameter's gradient */
	if (has_part(name, "backward") || has_part(name, "parameters_grad"))
		return true;
	/* ReluGrad, BiasAddGrad, Conv2DBackpropInput, ... */
	return (n > 4 && strcmp(type + n - 4, "Grad") == 0) || strstr(type, "Backprop");
}

static bool
is_weight(const char *name, const char *type)
{
	static const char *const var_types[] = {
		"VariableV2", "Variable", "VarHandleOp", "ReadVariableOp", "ResourceGather",
		NULL,
	};
	static const char *const inputs[] = { "data", "input", "label", "labels", "x", NULL };
	char head[16];
	size_t k;

	if (in_list(type, var_types))
		return true;
	if (strcmp(type, "Parameter") == 0) {
		/* parameters also carry the network's inputs: "data-1", "input_0" */
		k = strcspn(name, "-_.0123456789");
		if (k >= sizeof head)
			return true;
		memcpy(head, name, k);
		head[k] = '\0';
		return !in_list(head, inputs);
	}
	/* a variable's read: "dense/kernel/read" */
	return ends_with(name, "/kernel/read") || ends_with(name, "/bias/read") ||
	       ends_with(name, "/weights/read") || ends_with(name, "/weight/read");
}

static bool
is_activation(const char *type)
{
	static const char *const acts[] = {
		"Relu", "Relu6", "ReLU", "ReLU6", "ReLUV2", "LeakyRelu", "PReLU", "Elu", "Selu",
		"Sigmoid", "HSigmoid", "HardSigmoid", "Tanh", "Softmax", "LogSoftmax", "Softplus",
		"Softsign", "Gelu", "GeLU", "FastGelu", "FastGeLU", "Swish", "HSwish", "HardSwish",
		"Mish", "SiLU", "Silu", NULL,
	};

	return in_list(type, acts);
}

enum model_role
model_role_of(const char *op_name, const char *op_type)
{
	if (!op_name)
		op_name = "";
	if (!op_type)
		op_type = "";
	if (is_gradient(op_name, op_type))
		return ROLE_GRADIENT;
	if (is_weight(op_name, op_type))
		return ROLE_WEIGHT;
	/* a dotted type names the function last ("Functional.relu") */
	if (is_activation(op_type) ||
	    (strchr(op_type, '.') && is_activation(strrchr(op_type, '.') + 1)))
		return ROLE_ACTIVATION;
	return ROLE_NONE;
}
