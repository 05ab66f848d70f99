// ssh_url_to_repo of projects and project snippets as GitLab builds it
// (Settings.build_gitlab_shell_ssh_path_prefix): the SSH host is a host name without the HTTP
// port, `git@host:path.git` on SSH port 22 (the default), `ssh://git@host:port/path.git` on
// another port; SSH_HOST and SSH_PORT configure them, and bad values stop the server at start.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { sshPathPrefix } from "../../src/domain/repository/urls.js";
import { startTestApp } from "../helpers/app.js";
import { createProject, createUser } from "../helpers/factories.js";

async function urlsOf(env: Record<string, string>) {
  const t = await startTestApp(env);
  const user = await createUser(t);
  const project = await createProject(user.api, { path: "x" });
  const snippet = await user.api.post(`/projects/${project.id}/snippets`, { title: "s", visibility: "private", files: [{ file_path: "a.txt", content: "a" }] });
  expect(snippet.status, snippet.text).toBe(201);
  return { path: project.path_with_namespace, project: project.ssh_url_to_repo, read: (await user.api.get(`/projects/${project.id}`)).body.ssh_url_to_repo, snippet: snippet.body };
}

describe("ssh_url_to_repo", () => {
  it("uses PUBLIC_URL's host name without its HTTP port (GitLab: git@127.0.0.1:root/x.git, not git@127.0.0.1:44377:root/x.git)", async () => {
    const urls = await urlsOf({ PUBLIC_URL: "http://127.0.0.1:44377" });
    expect(urls.project).toBe(`git@127.0.0.1:${urls.path}.git`);
    expect(urls.read).toBe(urls.project);
    expect(urls.snippet.ssh_url_to_repo).toBe(`git@127.0.0.1:${urls.path}/snippets/${urls.snippet.id}.git`);
    expect(urls.snippet.http_url_to_repo).toBe(`http://127.0.0.1:44377/${urls.path}/snippets/${urls.snippet.id}.git`);
  });

  it("takes the ssh:// form with a configured SSH port other than 22, and SSH_HOST as the host", async () => {
    const urls = await urlsOf({ PUBLIC_URL: "https://forge.example.com:8443", SSH_PORT: "2222", SSH_HOST: "ssh.forge.example.com" });
    expect(urls.project).toBe(`ssh://git@ssh.forge.example.com:2222/${urls.path}.git`);
    expect(urls.snippet.ssh_url_to_repo).toBe(`ssh://git@ssh.forge.example.com:2222/${urls.path}/snippets/${urls.snippet.id}.git`);
  });

  it("port 22 configured explicitly is the short form", async () => {
    const urls = await urlsOf({ PUBLIC_URL: "http://forge.example.com", SSH_PORT: "22" });
    expect(urls.project).toBe(`git@forge.example.com:${urls.path}.git`);
  });

  it.each([
    [{ sshHost: "forge.example.com", sshPort: 22 }, "git@forge.example.com:"],
    [{ sshHost: "forge.example.com", sshPort: 2222 }, "ssh://git@forge.example.com:2222/"],
    [{ sshHost: "::1", sshPort: 22 }, "[git@::1]:"],
    [{ sshHost: "::1", sshPort: 2222 }, "ssh://git@[::1]:2222/"],
  ])("prefix for %j: %s", (config, prefix) => {
    expect(sshPathPrefix(config)).toBe(prefix);
  });

  it("an IPv6 PUBLIC_URL gives the address without brackets as the SSH host", () => {
    expect(loadConfig({ PUBLIC_URL: "http://[::1]:8080" }).sshHost).toBe("::1");
  });

  it.each([
    [{ SSH_PORT: "0" }, /SSH_PORT must be an integer from 1 to 65535/],
    [{ SSH_PORT: "ssh" }, /SSH_PORT must be an integer/],
    [{ SSH_PORT: "70000" }, /SSH_PORT must be an integer/],
    [{ SSH_HOST: "bad host/name" }, /SSH_HOST must be a host name or an IP address/],
  ])("refuses %j at start", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
