package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// TestServeGRPC runs gendisc serve --grpc-addr with a token on a free
// port given alone (so on loopback), calls ServerLive and ModelReady over TCP, and stops it.
// The calls use protobuf's wrapper messages, whose wire form is that of
// the protocol's (ServerLiveResponse and ModelReadyResponse are a bool
// field 1, ModelReadyRequest's name a string field 1): the generated
// client is internal to package server, whose tests use it.
func TestServeGRPC(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "iris.json")
	mustRun(t, "fit", "--data", "iris", "--out", model, "--quiet")
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("s3cret\n"), 0o600)
	var stderr lockedBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- Main(ctx, env, []string{"serve", "--model", model, "--addr", "127.0.0.1:0", "--grpc-addr", "0", // a port alone: loopback

			"--token-file", token, "--access-log"})
	}()
	var addr string
	for deadline := time.Now().Add(10 * time.Second); addr == ""; time.Sleep(5 * time.Millisecond) {
		if m := regexp.MustCompile(`msg="serving gRPC" addr=(\S+)`).FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gRPC server did not start: %s", stderr.String())
		}
	}
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("--grpc-addr 0 listens on %s, want loopback", addr)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	const service = "/inference.GRPCInferenceService/"
	live := &wrapperspb.BoolValue{}
	if err := conn.Invoke(ctx, service+"ServerLive", &wrapperspb.BoolValue{}, live); err != nil || !live.Value {
		t.Errorf("ServerLive: %v %v", live, err)
	}
	ready := &wrapperspb.BoolValue{}
	err = conn.Invoke(ctx, service+"ModelReady", wrapperspb.String("iris"), ready)
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("ModelReady without the token: %v", err)
	}
	auth := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer s3cret")
	if err := conn.Invoke(auth, service+"ModelReady", wrapperspb.String("iris"), ready); err != nil || !ready.Value {
		t.Errorf("ModelReady: %v %v", ready, err)
	}
	if err := conn.Invoke(auth, service+"ModelReady", wrapperspb.String("nope"), ready); status.Code(err) != codes.NotFound {
		t.Errorf("ModelReady of no model: %v", err)
	}
	conn.Close()
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"path=/inference.GRPCInferenceService/ModelReady status=200 code=OK model=iris", "code=Unauthenticated", "msg=stopped"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, stderr.String())
		}
	}
}
