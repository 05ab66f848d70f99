"""Groups, subgroups and projects through python-gitlab: create, get by (encoded) full path,
rename with save() and read the old path (python follows the GET 301), transfer, and list with
get_all=True, iterator=True and keyset pagination. TAG is a unique path prefix; OUTSIDER_TOKEN
belongs to a user who is a member of nothing."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
outsider = connect(os.environ["OUTSIDER_TOKEN"])

group = gl.groups.create({"name": f"Group {tag}", "path": tag})
sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
sub_two = gl.groups.create({"name": "Sub two", "path": "sub-two", "parent_id": group.id})
target = gl.groups.create({"name": f"Target {tag}", "path": f"{tag}-target"})
sub_by_path = gl.groups.get(f"{tag}/sub")
sub_by_path.description = "saved by python"
sub_by_path.save()

project = gl.projects.create({"name": "proj", "namespace_id": sub.id})
paged = [gl.projects.create({"name": f"paged-{i}", "namespace_id": group.id}).id for i in range(5)]
by_path = gl.projects.get(f"{tag}/sub/proj")
sub_project_ids = [p.id for p in sub.projects.list(get_all=True)]

# rename (name and path) with save(), then read the old path: GET 301 -> /projects/<id>
by_path.name = "Renamed"
by_path.path = "renamed"
by_path.save()
via_old_path = gl.projects.get(f"{tag}/sub/proj")

# transfer to another group; the path before the transfer still answers
via_old_path.transfer(target.id)
after_transfer = gl.projects.get(project.id)
via_pre_transfer_path = gl.projects.get(f"{tag}/sub/renamed")

lazy = gl.projects.list(iterator=True, per_page=2, search="paged-")
lazy_len = len(lazy)
lazy_ids = [p.id for p in lazy]


def ids(objects):
    return [o.id for o in objects]


emit({
    "group": {"id": group.id, "full_path": group.full_path, "parent_id": group.parent_id},
    "sub": {"id": sub.id, "full_path": sub.full_path, "parent_id": sub.parent_id},
    "sub_two_id": sub_two.id,
    "target_id": target.id,
    "sub_by_path": {"id": sub_by_path.id, "description": gl.groups.get(sub.id).description},
    "subgroup_ids": ids(group.subgroups.list(get_all=True)),
    "group_search_ids": ids(gl.groups.list(search=tag, get_all=True, per_page=2)),
    "project": {"id": project.id, "path_with_namespace": project.path_with_namespace, "namespace_id": project.namespace["id"]},
    "paged_ids": paged,
    "by_path_id": by_path.id,
    "group_project_ids": ids(group.projects.list(get_all=True, per_page=2)),
    "sub_project_ids": sub_project_ids,
    "sub_project_ids_after_transfer": ids(sub.projects.list(get_all=True)),
    "renamed": {"name": by_path.name, "path_with_namespace": by_path.path_with_namespace},
    "via_old_path": {"id": via_old_path.id, "path_with_namespace": via_old_path.path_with_namespace},
    "after_transfer": {"path_with_namespace": after_transfer.path_with_namespace, "namespace_id": after_transfer.namespace["id"]},
    "via_pre_transfer_path_id": via_pre_transfer_path.id,
    "all_ids": ids(gl.projects.list(get_all=True, per_page=2, search="paged-")),
    "iterator": {"len": lazy_len, "ids": lazy_ids, "total": lazy.total, "total_pages": lazy.total_pages},
    "keyset_asc_ids": ids(gl.projects.list(pagination="keyset", order_by="id", sort="asc", get_all=True, per_page=2)),
    "keyset_desc_ids": ids(gl.projects.list(pagination="keyset", order_by="id", sort="desc", get_all=True, per_page=3, search="paged-")),
    "errors": {
        "hidden_project": error_of(lambda: outsider.projects.get(project.id)),
        "hidden_by_path": error_of(lambda: outsider.projects.get(f"{tag}-target/renamed")),
        "hidden_group": error_of(lambda: outsider.groups.get(group.id)),
        "duplicate_project": error_of(lambda: gl.projects.create({"name": "paged-0", "namespace_id": group.id})),
        "transfer_same_namespace": error_of(lambda: after_transfer.transfer(target.id)),
    },
})
