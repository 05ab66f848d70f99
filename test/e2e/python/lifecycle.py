"""Delete and transfer flows through python-gitlab: group.transfer() (to a parent and to the top
level), descendant_groups, project.groups, project.delete() and group.delete(). TAG is a unique
path prefix."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()

group = gl.groups.create({"name": f"Life {tag}", "path": tag})
sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
lone = gl.groups.create({"name": "Lone", "path": f"{tag}-lone", "parent_id": group.id})
target = gl.groups.create({"name": f"Target {tag}", "path": f"{tag}-target"})
project = gl.projects.create({"name": "box", "namespace_id": sub.id})

# a subgroup made top-level (no group_id), then the group moved under the target
gl.groups.get(lone.id).transfer()
top_level = gl.groups.get(lone.id)
refused = error_of(lambda: group.transfer(sub.id))
group.transfer(target.id)
moved = gl.groups.get(group.id)

descendant_ids = [g.id for g in target.descendant_groups.list(get_all=True)]
project_group_ids = [g.id for g in project.groups.list(get_all=True)]
searched_group_ids = [g.id for g in project.groups.list(search="Sub", get_all=True)]
empty = gl.projects.get(project.id)

project.delete()
project_after_delete = error_of(lambda: gl.projects.get(project.id))
target.delete()
group_after_delete = error_of(lambda: gl.groups.get(group.id))
gl.groups.get(lone.id).delete()

emit({
    "group_id": group.id,
    "sub_id": sub.id,
    "target_id": target.id,
    "top_level": {"parent_id": top_level.parent_id, "full_path": top_level.full_path},
    "refused": refused,
    "moved": {"parent_id": moved.parent_id, "full_path": moved.full_path},
    "descendant_ids": descendant_ids,
    "project_group_ids": project_group_ids,
    "searched_group_ids": searched_group_ids,
    "empty_project": {"empty_repo": empty.empty_repo, "default_branch": empty.default_branch, "readme_url": empty.readme_url},
    "project_after_delete": project_after_delete,
    "group_after_delete": group_after_delete,
})
