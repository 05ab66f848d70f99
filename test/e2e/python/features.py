"""gl.features.set (POST /api/v4/features//<name>, double slash), list and delete."""
from common import connect, emit, error_of

gl = connect()


def as_dict(feature):
    return {"name": feature.name, "state": feature.state, "gates": feature.gates}


enabled = gl.features.set("approval_group_rules", True)
listed = [as_dict(f) for f in gl.features.list()]
disabled = gl.features.set("web_hook_test_api_endpoint_rate_limit", False)
slashed = gl.features.set("team/flag", True)
gl.features.delete("approval_group_rules")
gl.features.delete("web_hook_test_api_endpoint_rate_limit")
gl.features.delete("team/flag")
emit({
    "enabled": as_dict(enabled),
    "enabled_definition": enabled.definition,
    "listed": listed,
    "disabled": as_dict(disabled),
    "slashed": as_dict(slashed),
    "after_delete": [f.name for f in gl.features.list()],
    "percentage": error_of(lambda: gl.features.set("some_flag", 50)),
})
