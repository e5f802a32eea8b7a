// lsmns-nri: an NRI plugin that gives each container of a pod its own
// lsmns request.  A pod's annotations reach every container of the pod, so
// a sidecar cannot get another LSM set through them; this plugin reads the
// pod annotations keyed by container name,
//
//	CONTAINER.container.lsmns.org/KEY: VALUE
//
// and gives container CONTAINER the OCI annotation org.lsmns.KEY=VALUE and
// lsmns-hook as its createRuntime hook.  It decides nothing: unknown keys,
// refused requests and the host policy are lsmns-hook's business, and a
// container with no key of its own gets no hook.  Only pods of the
// runtime handlers named by -runtime-handler are touched (the RuntimeClass
// gate); the pod sandbox (pause) container never reaches CreateContainer
// and so never gets the hook.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
)

const keySuffix = ".container.lsmns.org/"

type plugin struct {
	hook     string
	handlers map[string]bool
}

// requestFor: the org.lsmns.* annotations pod annotations ask for the
// container named name, sorted for a stable log line.
func requestFor(podAnnotations map[string]string, name string) map[string]string {
	prefix := name + keySuffix
	req := map[string]string{}
	for k, v := range podAnnotations {
		if strings.HasPrefix(k, prefix) && len(k) > len(prefix) {
			req["org.lsmns."+k[len(prefix):]] = v
		}
	}
	return req
}

func (p *plugin) CreateContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) (*api.ContainerAdjustment, []*api.ContainerUpdate, error) {
	if len(p.handlers) > 0 && !p.handlers[pod.GetRuntimeHandler()] {
		return nil, nil, nil
	}
	req := requestFor(pod.GetAnnotations(), ctr.GetName())
	if len(req) == 0 {
		return nil, nil, nil
	}
	adj := &api.ContainerAdjustment{}
	keys := make([]string, 0, len(req))
	for k, v := range req {
		adj.AddAnnotation(k, v)
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	adj.AddHooks(&api.Hooks{CreateRuntime: []*api.Hook{{
		Path:    p.hook,
		Args:    []string{"lsmns-hook"},
		Timeout: api.Int(5),
	}}})
	fmt.Fprintf(os.Stderr, "lsmns-nri: pod %s/%s container %s: lsmns-hook with %s\n",
		pod.GetNamespace(), pod.GetName(), ctr.GetName(), strings.Join(keys, " "))
	return adj, nil, nil
}

func main() {
	name := flag.String("name", "lsmns", "plugin name registered with the runtime")
	idx := flag.String("idx", "50", "plugin index (order among NRI plugins)")
	socket := flag.String("socket", "", "NRI socket (default: NRI's default)")
	hook := flag.String("hook", "/usr/libexec/lsmns/lsmns-hook", "lsmns-hook's path on the node")
	handlers := flag.String("runtime-handler", "", "comma-separated runtime handlers whose pods are served; empty: every pod")
	flag.Parse()

	p := &plugin{hook: *hook, handlers: map[string]bool{}}
	for _, h := range strings.Split(*handlers, ",") {
		if h != "" {
			p.handlers[h] = true
		}
	}
	opts := []stub.Option{stub.WithPluginName(*name), stub.WithPluginIdx(*idx)}
	if *socket != "" {
		opts = append(opts, stub.WithSocketPath(*socket))
	}
	s, err := stub.New(p, opts...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lsmns-nri: cannot create the NRI stub: %v\n", err)
		os.Exit(1)
	}
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "lsmns-nri: %v\n", err)
		os.Exit(1)
	}
}
