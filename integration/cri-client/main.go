// lsmns-cri: a CRI client for the guest tests, talking to the container
// runtime's CRI socket the way kubelet does (RunPodSandbox with the pod's
// annotations and runtime handler, CreateContainer, StartContainer,
// ExecSync, StopPodSandbox, RemovePodSandbox).  One call per invocation,
// so that a shell test can check the state between calls.
//
//	lsmns-cri [-socket PATH] run-pod -name N [-handler H] [-a K=V]... -save FILE
//	lsmns-cri create -pod-config FILE -pod ID -name N -image IMG [-a K=V]... -- CMD...
//	lsmns-cri start ID
//	lsmns-cri exec ID -- CMD...        (ExecSync; its stdout, stderr and exit status)
//	lsmns-cri pid ID                   (a container's or pod's init pid, from the verbose status)
//	lsmns-cri stop-pod ID | rm-pod ID
//	lsmns-cri version
//
// A failed call prints "lsmns-cri: CALL: <the runtime's error>" and exits 1,
// so the tests see the error text kubelet would see.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	cri "k8s.io/cri-api/pkg/apis/runtime/v1"
)

type keyValues map[string]string

func (kv keyValues) String() string { return fmt.Sprint(map[string]string(kv)) }
func (kv keyValues) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", s)
	}
	kv[k] = v
	return nil
}

func fail(call string, err error) {
	if st, ok := status.FromError(err); ok {
		fmt.Fprintf(os.Stderr, "lsmns-cri: %s: %s: %s\n", call, st.Code(), st.Message())
	} else {
		fmt.Fprintf(os.Stderr, "lsmns-cri: %s: %v\n", call, err)
	}
	os.Exit(1)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: lsmns-cri [-socket PATH] run-pod|create|start|exec|pid|stop-pod|rm-pod|version ...")
	os.Exit(2)
}

func main() {
	socket := flag.String("socket", "/run/containerd/containerd.sock", "the runtime's CRI socket")
	timeout := flag.Duration("timeout", 120*time.Second, "limit for one call")
	flag.Parse()
	if flag.NArg() < 1 {
		usage()
	}
	conn, err := grpc.NewClient("unix://"+*socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fail("connect", err)
	}
	defer conn.Close()
	rt := cri.NewRuntimeServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	cmd, args := flag.Arg(0), flag.Args()[1:]
	switch cmd {
	case "version":
		r, err := rt.Version(ctx, &cri.VersionRequest{})
		if err != nil {
			fail("Version", err)
		}
		fmt.Printf("%s %s (CRI %s)\n", r.RuntimeName, r.RuntimeVersion, r.RuntimeApiVersion)
	case "run-pod":
		runPod(ctx, rt, args)
	case "create":
		create(ctx, rt, args)
	case "start":
		id := oneID(args)
		if _, err := rt.StartContainer(ctx, &cri.StartContainerRequest{ContainerId: id}); err != nil {
			fail("StartContainer", err)
		}
	case "exec":
		execSync(ctx, rt, args)
	case "pid":
		fmt.Println(pid(ctx, rt, oneID(args)))
	case "stop-pod":
		if _, err := rt.StopPodSandbox(ctx, &cri.StopPodSandboxRequest{PodSandboxId: oneID(args)}); err != nil {
			fail("StopPodSandbox", err)
		}
	case "rm-pod":
		if _, err := rt.RemovePodSandbox(ctx, &cri.RemovePodSandboxRequest{PodSandboxId: oneID(args)}); err != nil {
			fail("RemovePodSandbox", err)
		}
	default:
		usage()
	}
}

func oneID(args []string) string {
	if len(args) != 1 || args[0] == "" {
		usage()
	}
	return args[0]
}

func runPod(ctx context.Context, rt cri.RuntimeServiceClient, args []string) {
	fs := flag.NewFlagSet("run-pod", flag.ExitOnError)
	name := fs.String("name", "", "pod name")
	namespace := fs.String("namespace", "default", "pod namespace")
	handler := fs.String("handler", "", "runtime handler (the RuntimeClass's handler); empty: the default")
	save := fs.String("save", "", "write the PodSandboxConfig here (create needs it)")
	ann := keyValues{}
	fs.Var(ann, "a", "pod annotation KEY=VALUE (repeatable)")
	fs.Parse(args)
	if *name == "" || *save == "" {
		usage()
	}
	cfg := &cri.PodSandboxConfig{
		Metadata:     &cri.PodSandboxMetadata{Name: *name, Namespace: *namespace, Uid: *namespace + "-" + *name},
		// No hostname: kubelet sets none for a hostNetwork pod (the
		// pod shares the node's UTS namespace).
		LogDirectory: "/var/log/pods/" + *namespace + "_" + *name,
		Annotations:  ann,
		Labels:       map[string]string{"app": *name},
		Linux: &cri.LinuxPodSandboxConfig{
			CgroupParent: "/kubepods/" + *namespace + "-" + *name,
			// hostNetwork: the guest has no CNI plugin.
			SecurityContext: &cri.LinuxSandboxSecurityContext{
				NamespaceOptions: &cri.NamespaceOption{Network: cri.NamespaceMode_NODE},
			},
		},
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		fail("run-pod", err)
	}
	if err := os.WriteFile(*save, b, 0o644); err != nil {
		fail("run-pod", err)
	}
	r, err := rt.RunPodSandbox(ctx, &cri.RunPodSandboxRequest{Config: cfg, RuntimeHandler: *handler})
	if err != nil {
		fail("RunPodSandbox", err)
	}
	fmt.Println(r.PodSandboxId)
}

func create(ctx context.Context, rt cri.RuntimeServiceClient, args []string) {
	fs := flag.NewFlagSet("create", flag.ExitOnError)
	podConfig := fs.String("pod-config", "", "the PodSandboxConfig run-pod saved")
	pod := fs.String("pod", "", "pod sandbox id")
	name := fs.String("name", "", "container name")
	image := fs.String("image", "", "image reference")
	ann := keyValues{}
	fs.Var(ann, "a", "container annotation KEY=VALUE (repeatable)")
	var mounts multiFlag
	fs.Var(&mounts, "v", "bind mount HOST:CONTAINER[:ro] (repeatable)")
	fs.Parse(args)
	if *podConfig == "" || *pod == "" || *name == "" || *image == "" || fs.NArg() == 0 {
		usage()
	}
	b, err := os.ReadFile(*podConfig)
	if err != nil {
		fail("create", err)
	}
	var sb cri.PodSandboxConfig
	if err := json.Unmarshal(b, &sb); err != nil {
		fail("create", fmt.Errorf("%s: %w", *podConfig, err))
	}
	cfg := &cri.ContainerConfig{
		Metadata:    &cri.ContainerMetadata{Name: *name},
		Image:       &cri.ImageSpec{Image: *image},
		Command:     fs.Args(),
		Annotations: ann,
		LogPath:     *name + ".log",
		Linux: &cri.LinuxContainerConfig{
			SecurityContext: &cri.LinuxContainerSecurityContext{
				NamespaceOptions: &cri.NamespaceOption{Network: cri.NamespaceMode_NODE},
			},
		},
	}
	for _, m := range mounts {
		parts := strings.Split(m, ":")
		if len(parts) < 2 {
			fail("create", fmt.Errorf("mount %q is not HOST:CONTAINER[:ro]", m))
		}
		cfg.Mounts = append(cfg.Mounts, &cri.Mount{HostPath: parts[0], ContainerPath: parts[1],
			Readonly: len(parts) > 2 && parts[2] == "ro"})
	}
	r, err := rt.CreateContainer(ctx, &cri.CreateContainerRequest{PodSandboxId: *pod, Config: cfg, SandboxConfig: &sb})
	if err != nil {
		fail("CreateContainer", err)
	}
	fmt.Println(r.ContainerId)
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func execSync(ctx context.Context, rt cri.RuntimeServiceClient, args []string) {
	if len(args) < 3 || args[1] != "--" {
		usage()
	}
	r, err := rt.ExecSync(ctx, &cri.ExecSyncRequest{ContainerId: args[0], Cmd: args[2:], Timeout: 60})
	if err != nil {
		fail("ExecSync", err)
	}
	os.Stdout.Write(r.Stdout)
	os.Stderr.Write(r.Stderr)
	os.Exit(int(r.ExitCode))
}

// pid: the init pid from the runtime's verbose status ("info"), which is
// what crictl inspect shows; containers first, then pod sandboxes.
func pid(ctx context.Context, rt cri.RuntimeServiceClient, id string) int {
	var info map[string]string
	if r, err := rt.ContainerStatus(ctx, &cri.ContainerStatusRequest{ContainerId: id, Verbose: true}); err == nil {
		info = r.Info
	} else if r, err2 := rt.PodSandboxStatus(ctx, &cri.PodSandboxStatusRequest{PodSandboxId: id, Verbose: true}); err2 == nil {
		info = r.Info
	} else {
		fail("ContainerStatus/PodSandboxStatus", errors.Join(err, err2))
	}
	var v struct {
		Pid int `json:"pid"`
	}
	if err := json.Unmarshal([]byte(info["info"]), &v); err != nil || v.Pid == 0 {
		fail("pid", fmt.Errorf("no pid in the verbose status of %s", id))
	}
	return v.Pid
}
