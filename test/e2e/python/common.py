"""Shared helpers for the python-gitlab e2e scripts: the server comes from FORGELINE_URL and
FORGELINE_TOKEN; each script prints one JSON document that the vitest suite asserts on."""
import datetime
import json
import os
import sys
import uuid

import gitlab


def connect(token=None, **options):
    return gitlab.Gitlab(os.environ["FORGELINE_URL"], private_token=token or os.environ["FORGELINE_TOKEN"], **options)


def unique(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def in_days(days):
    return (datetime.date.today() + datetime.timedelta(days=days)).isoformat()


def create_user(gl, prefix="py"):
    username = unique(prefix)
    return gl.users.create({
        "username": username,
        "name": f"Python {username}",
        "email": f"{username}@example.com",
        "password": "password-123456",
        "skip_confirmation": True,
    })


def create_token(gl, user_id, name="python"):
    user = gl.users.get(user_id, lazy=True)
    return user.personal_access_tokens.create({"name": name, "scopes": ["api"], "expires_at": in_days(30)})


def error_of(call):
    """Runs call(); returns the raised python-gitlab error as a dict (or None if it succeeded)."""
    try:
        call()
    except gitlab.exceptions.GitlabError as error:
        return {
            "type": type(error).__name__,
            "response_code": error.response_code,
            "error_message": error.error_message,
        }
    return None


def emit(data):
    json.dump(data, sys.stdout)
    sys.stdout.write("\n")
