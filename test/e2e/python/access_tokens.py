"""Project and group access tokens through python-gitlab 3.12 (managers with list, create and
delete; a single token is read with gl.http_get), and the bot token reading the private
project. TAG is a unique path."""
import os

from common import connect, create_token, create_user, emit, error_of, in_days

tag = os.environ["TAG"]
gl = connect()
group = gl.groups.create({"name": f"Tokens {tag}", "path": tag})
project = gl.projects.create({"name": "proj", "namespace_id": group.id})
elsewhere = gl.projects.create({"name": f"elsewhere-{tag}"})


def token_view(token):
    return {key: getattr(token, key, None) for key in ("id", "name", "scopes", "access_level", "active", "revoked", "expires_at", "user_id")}


out = {"project_id": project.id, "group_id": group.id, "elsewhere_id": elsewhere.id}

token = project.access_tokens.create({"name": "py-project-bot", "scopes": ["read_api"], "access_level": 20, "expires_at": in_days(30)})
out["project_token"] = token_view(token)
out["project_token_secret_is_string"] = isinstance(token.token, str) and len(token.token) > 0
out["project_listed"] = [token_view(t) for t in project.access_tokens.list()]
out["project_single"] = gl.http_get(f"/projects/{project.id}/access_tokens/{token.id}")["name"]
bot = connect(token.token)
bot.auth()
out["bot_user"] = {"id": bot.user.id, "bot": bot.user.bot}
out["bot_reads_project"] = bot.projects.get(project.id).id
out["bot_elsewhere"] = error_of(lambda: bot.projects.get(elsewhere.id))
out["bot_member_level"] = project.members.get(token.user_id).access_level
token.delete()
out["project_after_revoke"] = [token_view(t) for t in project.access_tokens.list()]
out["bot_after_revoke"] = error_of(lambda: bot.projects.get(project.id))

token = group.access_tokens.create({"name": "py-group-bot", "scopes": ["api"], "access_level": 30, "expires_at": in_days(7)})
out["group_token"] = token_view(token)
out["group_listed_ids"] = [t.id for t in group.access_tokens.list()]
bot = connect(token.token)
out["group_bot_reads_project"] = bot.projects.get(project.id).id
out["group_bot_reads_group"] = bot.groups.get(group.id).id
token.delete()
out["group_bot_after_revoke"] = error_of(lambda: bot.groups.get(group.id))

# a Developer may not create tokens; a missing token cannot be deleted
dev = create_user(gl, "dev")
project.members.create({"user_id": dev.id, "access_level": 30})
as_dev = connect(create_token(gl, dev.id).token)
out["developer_creates"] = error_of(lambda: as_dev.projects.get(project.id, lazy=True).access_tokens.create({"name": "x", "scopes": ["api"]}))
out["delete_missing"] = error_of(lambda: group.access_tokens.delete(999999))
emit(out)
